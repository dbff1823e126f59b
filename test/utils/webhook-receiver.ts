import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  raw: string;
  body: Record<string, unknown>;
  at: number;
}

/** What the receiver answers a request with: a status, headers, a body, or a delay first. */
export type Reply = {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
};

/**
 * A real local HTTP server standing in for a customer's webhook endpoint. `reply` decides each
 * answer (default 200); every request is recorded.
 */
export async function startReceiver(
  reply: (request: ReceivedWebhook, index: number) => Reply = () => ({ status: 200 }),
) {
  const received: ReceivedWebhook[] = [];
  const delayed = new Set<NodeJS.Timeout>();
  let script = reply;
  // Requests open at once (from arrival to the answer's end), and the most there ever were.
  let open = 0;
  let mostOpen = 0;
  const server = http.createServer((request, response) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    response.once('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as is
      }
      const entry = {
        path: request.url ?? '/',
        headers: request.headers,
        raw,
        body,
        at: Date.now(),
      };
      received.push(entry);
      const answer = script(entry, received.length - 1);
      const send = () => {
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.body ?? '');
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          delayed.delete(timer);
          send();
        }, answer.delayMs);
        delayed.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** The most requests it ever held open at once: a sender's concurrency, exactly. */
    mostOpen: () => mostOpen,
    setReply(next: typeof reply) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Answers still waiting for their delay are never sent.
        for (const timer of delayed) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
