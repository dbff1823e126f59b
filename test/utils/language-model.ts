import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Completion {
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

/**
 * The one stand-in of the generative tests: a local server speaking the OpenAI chat-completions
 * format at `<url>/chat/completions`, answering by what the visitor asked: slowly, with an error,
 * with HANDOFF, or citing [1] and [2].
 */
export async function startLanguageModel() {
  const calls: Completion[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Completion['body'];
      calls.push({ authorization: req.headers.authorization, body });
      const question = body.messages[body.messages.length - 1].content;
      const reply = (content: string) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      };
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404);
        return res.end();
      }
      if (/slow/i.test(question)) return setTimeout(() => reply('Too late [1].'), 4000);
      if (/broken/i.test(question)) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"error":{"message":"overloaded"}}');
      }
      if (/weather/i.test(question)) return reply('HANDOFF');
      return reply('Use "Forgot password" on the login page [1]; parcels are covered in [2].');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
