import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { QueueName } from '../../src/queue/queue-names';
import { CatchUpCursor } from '../../web/shared/catch-up';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { startBalancer } from '../utils/balancer';
import { addToError } from '../utils/error-context';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import { redisAvailable, type RedisServer, startRedis } from '../utils/redis';
import { startReceiver } from '../utils/webhook-receiver';

/**
 * A deploy replaces an instance under load (issue 31, "graceful deploys"): two instances on one
 * PostgreSQL and one Redis behind a balancer that follows their readiness, as a Kubernetes
 * Service does; visitors and an API client write steadily, agents and visitors listen on sockets,
 * every message is a webhook event to a local receiver that takes its time answering (so
 * deliveries are running when the signal comes). One instance gets SIGTERM in the middle. Nothing
 * may be lost: every message sent was answered 2xx (the API client, as a real one does, sends
 * again with the same Idempotency-Key after a failure) and is stored exactly once, every event
 * reaches the receiver, no job is left failed or waiting, and the sockets of the stopped instance
 * reconnect to the other one and catch up.
 */
const describeWithRedis = redisAvailable() ? describe : describe.skip;

const VISITORS = 4;
const API_WRITERS = 2;
const AGENT_SOCKETS = 4;

interface Listener {
  name: string;
  socket: Socket;
  seen: Set<number>;
  /** Where a catch-up starts, as the dashboard and the widget keep it. */
  cursor: CatchUpCursor;
  disconnects: string[];
  connects: number;
}

interface MessageAnswer {
  id: number;
}

describeWithRedis('graceful deploys: SIGTERM to one of two instances mid-load', () => {
  jest.setTimeout(180_000);
  let databaseUrl: string;
  let redis: RedisServer;
  let one: AppProcess;
  let two: AppProcess;
  let balancer: Awaited<ReturnType<typeof startBalancer>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let org: Registered;
  let apiKey: string;
  const listeners: Listener[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    redis = await startRedis();
    // Slow enough that deliveries are in flight when the signal comes.
    receiver = await startReceiver(() => ({ status: 200, delayMs: 150 }));
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      SOCKET_TRANSPORTS: 'websocket',
      // The balancer polls readiness every 50 ms; this is the instance's own wait, not the test's.
      SHUTDOWN_DRAIN_MS: '1000',
      MISSED_CHAT_SECONDS: '3600',
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    [one, two] = await Promise.all([startApp(env), startApp(env)]);
    balancer = await startBalancer([
      { name: 'one', port: one.port },
      { name: 'two', port: two.port },
    ]);
    await eventually(async () => balancer.isReady('one') && balancer.isReady('two'), 30_000);
    org = await registerOrganization(balancer.url, 'Deploy Day Ltd');
    ({ key: apiKey } = await createApiKey(balancer.url, org.token, [
      'conversations:read',
      'conversations:write',
    ]));
    await request(balancer.url)
      .post('/api/agent/webhooks')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ url: `${receiver.url}/hook`, events: ['message.received', 'message.sent'] })
      .expect(201);
  });

  afterAll(async () => {
    for (const listener of listeners) listener.socket.close();
    await balancer?.close();
    if (
      one &&
      (await Promise.race([one.exited.then(() => true), Promise.resolve(false)])) === false
    )
      await one.kill();
    await two?.stop();
    await receiver?.close();
    await redis?.stop();
    await dropTestDatabase(databaseUrl);
  });

  /**
   * A socket through the balancer that reconnects by itself and catches up after each reconnect
   * as the dashboard does: `sync` page by page from its `CatchUpCursor`.
   */
  const listen = (name: string, namespace: '/agent' | '/widget', token: string) =>
    new Promise<Listener>((resolve, reject) => {
      const socket = io(`${balancer.url}${namespace}`, {
        auth: { token },
        transports: ['websocket'],
        forceNew: true,
        reconnectionDelay: 100,
        reconnectionDelayMax: 1000,
        extraHeaders: { 'x-client': name },
      });
      const listener: Listener = {
        name,
        socket,
        seen: new Set(),
        cursor: new CatchUpCursor(),
        disconnects: [],
        connects: 0,
      };
      const see = (id: number) => {
        listener.seen.add(id);
        listener.cursor.saw(id);
      };
      const catchUp = async () => {
        for (let after = listener.cursor.afterId; ;) {
          const answer = (await socket
            .timeout(10_000)
            .emitWithAck('sync', { after_id: after })
            .catch(() => undefined)) as { data?: { id: number }[] } | undefined;
          const rows = answer?.data ?? [];
          if (rows.length === 0) return;
          rows.forEach((message) => see(message.id));
          after = rows[rows.length - 1].id;
        }
      };
      socket.on('message.created', (message: { id: number }) => see(message.id));
      socket.on('disconnect', (reason) => listener.disconnects.push(reason));
      socket.on('connect', () => {
        listener.connects += 1;
        if (listener.connects === 1) return resolve(listener);
        void catchUp();
      });
      socket.once('connect_error', (error) => {
        if (listener.connects === 0) reject(error);
      });
      listeners.push(listener);
    });

  it('loses no message, event or job, and moves its sockets to the other instance', async () => {
    // Visitors, each with a conversation and a socket; agents listening on the organization.
    const visitors = await Promise.all(
      Array.from({ length: VISITORS }, async (_, index) => {
        const session = (
          await request(balancer.url)
            .post('/api/widget/init')
            .send({ widget_key: org.site.widget_key, visitor_name: `Visitor ${index}` })
            .expect(200)
        ).body as { session_token: string; conversation_id: number };
        const first = await request(balancer.url)
          .post('/api/widget/messages')
          .set('Authorization', `Bearer ${session.session_token}`)
          .send({ body: `visitor ${index} opens` })
          .expect(201);
        const socket = await listen(`visitor-${index}`, '/widget', session.session_token);
        return { ...session, socket, firstId: (first.body as MessageAnswer).id, index };
      }),
    );
    for (let i = 0; i < AGENT_SOCKETS; i += 1) await listen(`agent-${i}`, '/agent', org.token);
    // Round-robin put sockets on both instances; those on `one` must move.
    const movers = balancer.record.upgrades.filter((u) => u.backend === 'one').map((u) => u.client);
    expect(movers.length).toBeGreaterThan(0);

    const sent = new Map<string, number>(); // body -> message id
    for (const visitor of visitors) sent.set(`visitor ${visitor.index} opens`, visitor.firstId);
    const failures: string[] = [];
    let running = true;

    const widgetWriter = async (visitor: (typeof visitors)[number]) => {
      for (let n = 0; running; n += 1) {
        const body = `visitor ${visitor.index} message ${n}`;
        const res = await request(balancer.url)
          .post('/api/widget/messages')
          .set('Authorization', `Bearer ${visitor.session_token}`)
          .send({ body })
          .then(
            (r) => r,
            (error: Error) => error,
          );
        if (res instanceof Error || res.status !== 201) {
          failures.push(`${body}: ${res instanceof Error ? res.message : res.status}`);
          return;
        }
        sent.set(body, (res.body as MessageAnswer).id);
      }
    };
    const apiWriter = async (writer: number) => {
      for (let n = 0; running; n += 1) {
        const visitor = visitors[n % visitors.length];
        const body = `api ${writer} reply ${n}`;
        const key = randomUUID();
        for (let attempt = 1; ; attempt += 1) {
          const res = await request(balancer.url)
            .post(`/api/v1/conversations/${visitor.conversation_id}/messages`)
            .set('Authorization', `Bearer ${apiKey}`)
            .set('Idempotency-Key', key)
            .send({ body })
            .then(
              (r) => r,
              (error: Error) => error,
            );
          if (!(res instanceof Error) && res.status === 201) {
            sent.set(body, (res.body as MessageAnswer).id);
            break;
          }
          if (attempt === 5) {
            failures.push(`${body}: ${res instanceof Error ? res.message : res.status}`);
            return;
          }
        }
      }
    };
    const writers = Promise.all([
      ...visitors.map(widgetWriter),
      ...Array.from({ length: API_WRITERS }, (_, writer) => apiWriter(writer)),
    ]);

    // Mid-load: SIGTERM once messages flow and webhook deliveries run, then keep writing until
    // the other instance alone has taken as many again.
    await eventually(async () => sent.size >= 40 && receiver.received.length >= 10, 60_000);
    const exitCode = one.stop();
    await expect(exitCode).resolves.toBe(0);
    const atExit = sent.size;
    await eventually(async () => sent.size >= atExit + 40 || failures.length > 0, 60_000);
    running = false;
    await writers;
    expect(failures).toEqual([]);

    // The instance stopped in the order that loses nothing.
    const phases = one.logs.map((entry) => entry.phase).filter((phase) => phase !== undefined);
    expect(phases).toEqual([
      'not_ready',
      'not_listening',
      'sockets_closed',
      'requests_done',
      'workers_stopped',
    ]);
    expect(balancer.record.readiness.get('one')).toContain(false);
    const told = one.logs.find((entry) => entry.phase === 'sockets_closed');
    expect(told?.sockets).toBe(movers.length);

    // Every message is stored exactly once.
    const db = pool(databaseUrl);
    try {
      const stored = (
        await db.query<{ id: string; body: string }>(
          `SELECT m.id, m.body FROM messages m JOIN conversations c ON c.id = m.conversation_id
            WHERE c.organization_id = $1 AND m.sender_type IN ('visitor', 'agent')`,
          [org.organization.id],
        )
      ).rows;
      const bodies = stored.map((row) => row.body).sort();
      expect(bodies).toEqual([...sent.keys()].sort());
      const ids = new Set([...sent.values()]);

      // Every message became exactly one event, delivered (a retried delivery keeps its id).
      const eventsFor = () => {
        const byMessage = new Map<number, Set<string>>();
        for (const hook of receiver.received) {
          const data = hook.body.data as { message?: { id: number } } | undefined;
          if (!data?.message) continue;
          const set = byMessage.get(data.message.id) ?? new Set<string>();
          set.add(String(hook.headers['webhook-id']));
          byMessage.set(data.message.id, set);
        }
        return byMessage;
      };
      await eventually(async () => [...ids].every((id) => eventsFor().has(id)), 60_000);
      expect([...eventsFor().entries()].filter(([, hooks]) => hooks.size !== 1)).toEqual([]);
      expect([...eventsFor().keys()].sort()).toEqual([...ids].sort());

      // No job lost: every delivery succeeded, no domain event is left, every queue is empty.
      await eventually(async () => {
        const open = await db.query(
          `SELECT 1 FROM webhook_deliveries WHERE status <> 'succeeded' LIMIT 1`,
        );
        return open.rowCount === 0;
      }, 30_000);
      const outbox = await db.query(
        `SELECT count(*)::int AS n FROM outbox_events WHERE processed_at IS NULL`,
      );
      expect(outbox.rows[0].n).toBe(0);
      for (const name of Object.values(QueueName)) {
        const queue = new Queue(name, { connection: { url: redis.url } });
        try {
          const counts = await queue.getJobCounts('waiting', 'active', 'failed');
          expect({ queue: name, ...counts }).toEqual({
            queue: name,
            waiting: 0,
            active: 0,
            failed: 0,
          });
        } finally {
          await queue.close();
        }
      }
    } finally {
      await db.end();
    }

    // The sockets that were on `one` were dropped (not closed by the server, which a client
    // would take as final), reconnected through the balancer to `two`, and caught up.
    for (const listener of listeners.filter((l) => movers.includes(l.name))) {
      expect(listener.disconnects).toEqual(['transport close']);
      expect(listener.connects).toBe(2);
    }
    const rerouted = balancer.record.upgrades.slice(VISITORS + AGENT_SOCKETS);
    expect(rerouted.map((u) => u.client).sort()).toEqual([...movers].sort());
    expect(rerouted.every((u) => u.backend === 'two')).toBe(true);
    // The agents connected after each visitor's first message; every later one must reach them.
    const firstIds = new Set(visitors.map((visitor) => visitor.firstId));
    const allIds = [...sent.values()].filter((id) => !firstIds.has(id));
    const unseen = () =>
      Object.fromEntries(
        listeners
          .filter((l) => l.name.startsWith('agent-'))
          .map((l) => [l.name, allIds.filter((id) => !l.seen.has(id))])
          .filter(([, ids]) => ids.length > 0),
      );
    await eventually(async () => Object.keys(unseen()).length === 0, 20_000).catch(() => undefined);
    try {
      expect(unseen()).toEqual({});
    } catch (error) {
      // Seen once in a fresh-clone run (docs/testing.md): which sockets moved, what each saw and
      // when, and when the stopped instance passed each phase, to tell a push lost on its way
      // from one whose catch-up skipped it.
      const missing = new Set(Object.values(unseen()).flat());
      const bodies = [...sent.entries()].filter(([, id]) => missing.has(id));
      addToError(
        error as Error,
        [
          `movers: ${JSON.stringify(movers)}`,
          `unseen messages: ${JSON.stringify(bodies)}`,
          ...listeners
            .filter((l) => l.name.startsWith('agent-'))
            .map(
              (l) =>
                `${l.name}: connects ${l.connects}, disconnects ${JSON.stringify(l.disconnects)}, ` +
                `seen ${l.seen.size}, highest ${Math.max(0, ...l.seen)}`,
            ),
          `stopped instance's phases: ${JSON.stringify(
            one.logs.filter((entry) => entry.phase !== undefined),
          )}`,
        ].join('\n'),
      );
      throw error;
    }
  });
});

/**
 * A job that outlasts SHUTDOWN_JOB_WAIT_MS is handed back, not lost and not left to the
 * stalled-job check: on BullMQ's PostgreSQL backend (no Redis), one instance is stuck delivering
 * to an endpoint that does not answer when it gets SIGTERM; it exits without waiting for the
 * answer, and the other instance delivers the same event (same webhook-id).
 */
describe('graceful deploys: a job still running at the deadline is handed back', () => {
  jest.setTimeout(120_000);
  let databaseUrl: string;
  let one: AppProcess | undefined;
  let two: AppProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // The first request hangs far longer than the shutdown waits; the next ones are answered.
    receiver = await startReceiver((_, index) =>
      index === 0 ? { status: 200, delayMs: 60_000 } : { status: 204 },
    );
  });

  afterAll(async () => {
    await two?.stop();
    await receiver?.close();
    await dropTestDatabase(databaseUrl);
  });

  it('moves the running delivery back to waiting, and the other instance sends it', async () => {
    const env = {
      DATABASE_URL: databaseUrl,
      SHUTDOWN_JOB_WAIT_MS: '500',
      WEBHOOK_TIMEOUT_MS: '60000',
    };
    one = await startApp(env);
    const org = await registerOrganization(one.url, 'Slow Hooks Ltd');
    await request(one.url)
      .post('/api/agent/webhooks')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ url: `${receiver.url}/slow`, events: ['message.received'] })
      .expect(201);
    const session = await request(one.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key })
      .expect(200);
    await request(one.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.body.session_token as string}`)
      .send({ body: 'Hello, slowly' })
      .expect(201);
    // Only `one` runs: the delivery hanging at the receiver is its job.
    await eventually(async () => receiver.received.length === 1, 30_000);
    two = await startApp(env);

    const stopped = Date.now();
    expect(await one.stop()).toBe(0);
    // It did not wait for the hanging answer (a minute) nor for its own deadline (20 s).
    expect(Date.now() - stopped).toBeLessThan(15_000);
    const handedBack = one.logs.find(
      (entry) => entry.msg === 'jobs still running at shutdown were handed back to their queues',
    );
    expect(handedBack?.jobs).toEqual([expect.stringMatching(/^webhook-deliveries\//)]);

    await eventually(async () => receiver.received.length === 2, 30_000);
    const [first, second] = receiver.received;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    const db = pool(databaseUrl);
    let seen: unknown[] = [];
    try {
      await eventually(async () => {
        const rows = await db.query<{ status: string }>(
          `SELECT status, attempts, claimed_by, next_attempt_at, last_status_code
           FROM webhook_deliveries`,
        );
        seen = rows.rows;
        return rows.rows.length === 1 && rows.rows[0].status === 'succeeded';
      });
    } catch (error) {
      // Which state the delivery stayed in, and what the instance that sent it logged.
      const attempts = await db.query(`SELECT * FROM webhook_attempts ORDER BY attempt`);
      if (error instanceof Error)
        addToError(
          error,
          [
            `deliveries: ${JSON.stringify(seen)}`,
            `attempts: ${JSON.stringify(attempts.rows)}`,
            `second instance's log:`,
            ...two.logs.slice(-30).map((entry) => JSON.stringify(entry)),
          ].join('\n'),
        );
      throw error;
    } finally {
      await db.end();
    }
  });
});
