import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { type Exposition, parsePrometheus, valueOf } from '../utils/prometheus';
import { connect, type TestSocket } from '../utils/sockets';
import { startReceiver } from '../utils/webhook-receiver';

type Scrape = Exposition;

/** The series' value; a series that is not there fails the test (0 where absent is `valueOf`'s). */
function value(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  const found = valueOf(scrape, name, labels);
  if (found === undefined) throw new Error(`no ${name} ${JSON.stringify(labels)}`);
  return found;
}

/**
 * `GET /metrics` (DESIGN section 13): refused (404) without METRICS_TOKEN or with another token;
 * with it, the Prometheus text format (read here by a Prometheus text parser) whose named series
 * move under traffic, with route templates and never paths or ids as labels.
 */
describe('metrics', () => {
  const token = randomBytes(24).toString('hex');
  let databaseUrl: string;
  let app: AppProcess;
  let org: Registered;
  const sockets: TestSocket[] = [];
  const direct = () => `http://127.0.0.1:${app.port}`;

  const scrape = async (): Promise<Scrape> => {
    const res = await fetch(`${app.url}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(await res.text());
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // The database's figures read in the background every second (5 by default).
    app = await startApp({
      DATABASE_URL: databaseUrl,
      METRICS_TOKEN: token,
      METRICS_SAMPLE_SECONDS: '1',
    });
    org = await registerOrganization(app.url, 'Metrics Inc.');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('answers 404 without the token or with another one, as for an unknown address', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', token]) {
      const res = await request(app.url)
        .get('/metrics')
        .set(authorization ? { authorization } : {})
        .expect(404);
      expect(res.body).toMatchObject({ status: false, error_code: 'not_found' });
    }
  });

  it('answers 404 on an instance without METRICS_TOKEN, whatever is sent', async () => {
    const plain = await startApp({ DATABASE_URL: databaseUrl });
    try {
      await request(plain.url).get('/metrics').set('Authorization', `Bearer ${token}`).expect(404);
    } finally {
      await plain.stop();
    }
  });

  it('counts requests by route template and status with a latency histogram', async () => {
    const before = await scrape();
    const conversation = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key })
        .expect(200)
    ).body as { conversation_id: number };
    for (let i = 0; i < 3; i++)
      await request(app.url)
        .get(`/api/agent/conversations/${conversation.conversation_id + 1000 + i}`)
        .set('Authorization', `Bearer ${org.token}`)
        .expect(404);
    const after = await scrape();

    expect(after.types.get('scs_http_request_duration_seconds')).toBe('histogram');
    // Templates only: no route label holds an id.
    const routes = after.samples.flatMap((sample) => sample.labels.route ?? []);
    expect(routes).toContain('/api/agent/conversations/:conversation');
    for (const route of routes) expect(route).not.toMatch(/\/\d+(\/|$)/);
    const lookup = {
      method: 'GET',
      route: '/api/agent/conversations/:conversation',
      status: '404',
    };
    expect(value(after, 'scs_http_request_duration_seconds_count', lookup)).toBe(3);
    expect(
      value(after, 'scs_http_request_duration_seconds_bucket', { ...lookup, le: '+Inf' }),
    ).toBe(3);
    expect(value(after, 'scs_http_request_duration_seconds_sum', lookup)).toBeGreaterThan(0);
    const init = { method: 'POST', route: '/api/widget/init', status: '200' };
    expect(value(after, 'scs_http_request_duration_seconds_count', init)).toBe(
      (valueOf(before, 'scs_http_request_duration_seconds_count', init) ?? 0) + 1,
    );
  });

  it('shows open sockets per namespace, queues, the outbox, webhook attempts, the pool, the event loop and memory', async () => {
    const receiver = await startReceiver();
    try {
      await request(app.url)
        .post('/api/agent/webhooks')
        .set('Authorization', `Bearer ${org.token}`)
        .send({ url: receiver.url, events: ['message.received'] })
        .expect(201);
      const before = await scrape();
      expect(value(before, 'scs_socket_connections', { namespace: '/widget' })).toBe(0);

      const session = (
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: org.site.widget_key })
          .expect(200)
      ).body as { session_token: string };
      sockets.push(await connect(direct(), '/widget', session.session_token));
      sockets.push(await connect(direct(), '/agent', org.token));
      for (let i = 0; i < 3; i++)
        await request(app.url)
          .post('/api/widget/messages')
          .set('Authorization', `Bearer ${session.session_token}`)
          .send({ body: `Hello ${i}` })
          .expect(201);
      await eventually(async () => receiver.received.length >= 3);

      // The queue figures are read in the background: the next read shows the new timers.
      const delayedBefore = value(before, 'scs_queue_jobs', {
        queue: 'missed-chats',
        state: 'delayed',
      });
      const after = await eventually(async () => {
        const next = await scrape();
        return (
          (valueOf(next, 'scs_webhook_attempts_total', { outcome: 'succeeded' }) ?? 0) >= 3 &&
          value(next, 'scs_queue_jobs', { queue: 'missed-chats', state: 'delayed' }) >
            delayedBefore &&
          next
        );
      });
      expect(value(after, 'scs_socket_connections', { namespace: '/widget' })).toBe(1);
      expect(value(after, 'scs_socket_connections', { namespace: '/agent' })).toBe(1);

      for (const queue of [
        'missed-chats',
        'webhook-deliveries',
        'outgoing-mail',
        'conversation-mail',
      ]) {
        for (const state of ['waiting', 'active', 'delayed', 'failed'])
          expect(value(after, 'scs_queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
        expect(value(after, 'scs_queue_oldest_waiting_seconds', { queue })).toBeGreaterThanOrEqual(
          0,
        );
      }
      // Each visitor message that opens or waits starts a missed-chat timer: a delayed job.
      expect(
        value(after, 'scs_queue_jobs', { queue: 'missed-chats', state: 'delayed' }),
      ).toBeGreaterThan(delayedBefore);
      expect(value(after, 'scs_outbox_pending_events')).toBeGreaterThanOrEqual(0);
      expect(value(after, 'scs_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(value(after, 'scs_outbox_failed_events')).toBe(0);

      expect(value(after, 'scs_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(value(after, 'scs_db_pool_connections', { state: 'waiting' })).toBe(0);
      expect(value(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(value(after, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
      expect(value(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

      for (const socket of sockets.splice(0)) socket.close();
      await eventually(async () => {
        const closed = await scrape();
        return value(closed, 'scs_socket_connections', { namespace: '/widget' }) === 0;
      });
    } finally {
      await receiver.close();
    }
  });

  it('counts failed webhook attempts that will be retried', async () => {
    const failing = await startReceiver(() => ({ status: 500 }));
    try {
      const start =
        valueOf(await scrape(), 'scs_webhook_attempts_total', { outcome: 'retrying' }) ?? 0;
      await request(app.url)
        .post('/api/agent/webhooks')
        .set('Authorization', `Bearer ${org.token}`)
        .send({ url: failing.url, events: ['message.received'] })
        .expect(201);
      const session = (
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: org.site.widget_key })
          .expect(200)
      ).body as { session_token: string };
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body: 'Anyone there?' })
        .expect(201);
      await eventually(async () => {
        const next = await scrape();
        return (valueOf(next, 'scs_webhook_attempts_total', { outcome: 'retrying' }) ?? 0) > start;
      });
    } finally {
      await failing.close();
    }
  });
});
