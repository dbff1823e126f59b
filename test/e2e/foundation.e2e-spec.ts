import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import request from 'supertest';
import { type AppProcess, eventually } from '../utils/app-process';
import { COMMITTED_DOCUMENT } from '../utils/openapi-proxy';
import { startTestApp, type TestApp } from '../utils/test-app';

const ENVELOPE = {
  status: expect.any(Boolean),
  message: expect.any(String),
  code: expect.any(String),
  datetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
};

describe('foundation: envelope, errors, health, documents', () => {
  let suite: TestApp;
  let app: AppProcess;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({
      BODY_LIMIT: '64kb',
      PUBLIC_URL: 'https://chat.example.test',
    }));
  });

  afterAll(() => suite?.stop());

  it('answers liveness in the envelope', async () => {
    const res = await request(app.url).get('/health/live').expect(200);
    expect(res.body).toEqual({ ...ENVELOPE, status: true, message: 'Alive.', code: '200' });
  });

  it('is ready when the database and the queue answer', async () => {
    const res = await request(app.url).get('/health/ready').expect(200);
    expect(res.body).toMatchObject({
      status: true,
      code: '200',
      checks: { database: 'up', queue: 'up' },
    });
  });

  it('reports version, uptime, database mode and queue backend in /status.json', async () => {
    const res = await request(app.url).get('/status.json').expect(200);
    expect(res.body).toMatchObject({
      ...ENVELOPE,
      status: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptime_seconds: expect.any(Number),
      database: { status: 'up', mode: 'external' },
      queue: { status: 'up', backend: 'postgres' },
    });
  });

  it('answers unknown routes with the 404 envelope', async () => {
    for (const [method, path] of [
      ['get', '/no/such/route'],
      ['post', '/api/v1/nothing'],
      ['delete', '/health/live'],
    ] as const) {
      const res = await request(app.url)[method](path).expect(404);
      expect(res.body).toEqual({
        ...ENVELOPE,
        status: false,
        message: 'Not found.',
        code: '404',
        error_code: 'not_found',
      });
    }
  });

  it('answers malformed JSON with a 400 malformed_json, never a 500', async () => {
    const res = await request(app.url)
      .post('/api/v1/anything')
      .set('Content-Type', 'application/json')
      .send('{"body": "unterminated')
      .expect(400);
    expect(res.body).toMatchObject({ status: false, code: '400', error_code: 'malformed_json' });
  });

  it('answers an oversized body with a 413 payload_too_large', async () => {
    const res = await request(app.url)
      .post('/api/v1/anything')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ body: 'x'.repeat(100 * 1024) }))
      .expect(413);
    expect(res.body).toMatchObject({ status: false, code: '413', error_code: 'payload_too_large' });
  });

  it('keeps an idle keep-alive connection open past the 5 s Node closes it at', async () => {
    // Balancers and clients reuse an idle connection for up to 60 s; a server closing it first
    // answers the next request with a reset (KEEP_ALIVE_TIMEOUT_MS, 65 s).
    const { port } = new URL(suite.direct);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    let closed = false;
    socket.on('close', () => (closed = true));
    const ask = () =>
      socket.write(
        'GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n',
      );
    const answers = () => received.match(/HTTP\/1\.1 200 OK/g)?.length ?? 0;
    ask();
    await eventually(async () => answers() === 1);
    expect(received).toMatch(/Keep-Alive: timeout=65/i);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closed).toBe(false);
    ask();
    await eventually(async () => answers() === 2);
    socket.destroy();
  }, 20_000);

  it('sends a correlation id on every response and keeps a well-formed inbound one', async () => {
    const generated = await request(app.url).get('/health/live');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(app.url).get('/health/live').set('X-Request-Id', 'trace-abc.123');
    expect(kept.headers['x-request-id']).toBe('trace-abc.123');
    const replaced = await request(app.url)
      .get('/health/live')
      .set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs one structured line per request, with id, method, path, status and duration', async () => {
    await request(app.url)
      .get('/health/live?secret=hidden')
      .set('X-Request-Id', 'log-check-1')
      .expect(200);
    const line = await eventually(async () =>
      app.logs.find((entry) => (entry.req as { id?: string } | undefined)?.id === 'log-check-1'),
    );
    expect(line).toMatchObject({
      level: 'info',
      req: { id: 'log-check-1', method: 'GET', path: '/health/live' },
      res: { status: 200 },
      duration_ms: expect.any(Number),
    });
    expect(JSON.stringify(line)).not.toContain('hidden');
  });

  it('never writes credentials to the log', async () => {
    await request(app.url)
      .get('/health/live')
      .set('Authorization', 'Bearer scs_live_supersecretvalue')
      .set('X-Service-Key', 'scs_live_othersecret')
      .set('Cookie', 'scs_session=cookiesecret')
      .expect(200);
    const all = JSON.stringify(app.logs);
    expect(all).not.toContain('supersecretvalue');
    expect(all).not.toContain('othersecret');
    expect(all).not.toContain('cookiesecret');
  });

  it('serves the committed OpenAPI document with the public URL as its server', async () => {
    const res = await request(app.url).get('/api/v1/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.servers).toEqual([{ url: 'https://chat.example.test' }]);
    // Every suite's responses are checked against the committed document (test/utils/openapi-proxy.ts).
    const committed = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as object;
    expect({ ...res.body, servers: [] }).toEqual(committed);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/health/live', '/health/ready', '/status.json']),
    );
    expect(res.body.status).toBeUndefined();
  });

  it('serves a Postman collection generated from the document', async () => {
    const res = await request(app.url).get('/api/v1/postman.json').expect(200);
    expect(res.body.info.schema).toContain('v2.1.0');
    expect(res.body.variable).toEqual(
      expect.arrayContaining([{ key: 'baseUrl', value: 'https://chat.example.test' }]),
    );
    const requests = res.body.item.flatMap(
      (folder: { item: { request: { url: { raw: string } } }[] }) =>
        folder.item.map((item) => item.request.url.raw),
    );
    expect(requests).toEqual(expect.arrayContaining(['{{baseUrl}}/health/ready']));
  });

  it('shows the Swagger UI at /api/docs', async () => {
    const res = await request(app.url).get('/api/docs/').expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.text).toContain('swagger-ui');
  });
});
