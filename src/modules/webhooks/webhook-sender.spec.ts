import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from './webhook-sender';

describe('sendWebhook connections', () => {
  let server: http.Server;
  let url: string;
  let connections = 0;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.statusCode = 204;
        response.end();
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps the connections of a busy origin open between waves of attempts', async () => {
    // Four endpoints on one origin, four attempts each at once: what the worker runs in a burst.
    const wave = () =>
      Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          sendWebhook(`${url}/hooks/${i % 4}`, { 'content-type': 'application/json' }, '{}', {
            timeoutMs: 5_000,
            allowInsecure: true,
          }),
        ),
      );
    for (let i = 0; i < 3; i += 1) {
      const results = await wave();
      expect(results.map((result) => result.statusCode)).toEqual(Array(16).fill(204));
    }
    // Each wave reuses the first wave's sockets; with too few kept, every wave opened more.
    expect(connections).toBeLessThanOrEqual(16);
  });
});
