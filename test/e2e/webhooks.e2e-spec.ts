import { createHmac } from 'node:crypto';
import type { Pool } from 'pg';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { type ReceivedWebhook, startReceiver } from '../utils/webhook-receiver';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const ALL_EVENTS = [
  'conversation.started',
  'message.received',
  'message.sent',
  'chat.missed',
  'chat.closed',
  'ticket.created',
  'ticket.assigned',
  'ticket.status_changed',
  'ticket.priority_changed',
  'ticket.comment_added',
  'review.submitted',
];

/** What a receiver computes to trust a delivery (spec section 6 and Standard Webhooks). */
function verify(hook: ReceivedWebhook, secret: string) {
  const hex = createHmac('sha256', secret).update(hook.raw).digest('hex');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standard = createHmac('sha256', key)
    .update(
      `${String(hook.headers['webhook-id'])}.${String(hook.headers['webhook-timestamp'])}.${hook.raw}`,
    )
    .digest('base64');
  return (
    hook.headers['x-service-signature'] === hex &&
    hook.headers['webhook-signature'] === `v1,${standard}`
  );
}

describe('outgoing webhooks', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  const receivers: Receiver[] = [];

  const env = () => ({
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_INSECURE: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '200,400',
    WEBHOOK_TIMEOUT_MS: '1500',
    MISSED_CHAT_SECONDS: '1',
  });
  const agent = (token = org.token) => ({ Authorization: `Bearer ${token}` });
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  const subscribe = async (url: string, events = ALL_EVENTS, token = org.token) => {
    const res = await request(app.url)
      .post('/api/agent/webhooks')
      .set(agent(token))
      .send({ url, events })
      .expect(201);
    return { id: res.body.data.id as number, secret: res.body.signing_secret as string };
  };
  const widgetSession = async () =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key, visitor_name: 'Hook Visitor' })
        .expect(200)
    ).body as { session_token: string; conversation_id: number; visitor_id: number };

  beforeAll(async () => {
    ({ app, db, databaseUrl } = suite = await startTestApp(env()));
    org = await registerOrganization(app.url, 'Hooked');
    other = await registerOrganization(app.url, 'Elsewhere');
  });

  afterAll(async () => {
    for (const r of receivers) await r.close();
    await suite?.stop();
  });

  it('delivers every event, signed, with the documented payload, only to subscribers', async () => {
    const all = await receiver();
    const onlyTickets = await receiver();
    const { secret } = await subscribe(`${all.url}/all`);
    expect(secret).toMatch(/^whsec_/);
    await subscribe(`${onlyTickets.url}/tickets`, ['ticket.created']);
    const foreign = await receiver();
    await subscribe(foreign.url, ALL_EVENTS, other.token);

    // A chat: started, received, sent, closed, reviewed; then a missed one.
    const session = await widgetSession();
    const bearer = { Authorization: `Bearer ${session.session_token}` };
    const visitorMessage = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer)
      .send({ body: 'Hello' })
      .expect(201);
    const agentMessage = await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/messages`)
      .set(agent())
      .send({ body: 'Hi there' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/close`)
      .set(agent())
      .expect(200);
    await request(app.url).post('/api/widget/reviews').set(bearer).send({ rating: 4 }).expect(201);
    const lonely = await widgetSession();
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${lonely.session_token}`)
      .send({ body: 'Anyone?' })
      .expect(201);

    // Tickets: created, assigned, status, priority, comment.
    const member = await addMember(app.url, org.token, 'agent');
    const ticket = await request(app.url)
      .post('/api/agent/tickets')
      .set(agent())
      .send({ subject: 'Refund', description: 'Please refund order 42' })
      .expect(201);
    const ticketId = ticket.body.data.id as number;
    await request(app.url)
      .patch(`/api/agent/tickets/${ticketId}`)
      .set(agent())
      .send({ assigned_agent_id: member.id, status: 'pending', priority: 'high' })
      .expect(200);
    await request(app.url)
      .post(`/api/agent/tickets/${ticketId}/comments`)
      .set(agent())
      .send({ body: 'Refund issued', is_internal: true })
      .expect(201);

    const byEvent = await eventually(async () => {
      // The first delivery of each event (message.received happens twice).
      const seen = new Map(
        [...all.received].reverse().map((hook) => [hook.body.event as string, hook]),
      );
      return ALL_EVENTS.every((event) => seen.has(event)) ? seen : undefined;
    }, 20_000);

    for (const [event, hook] of byEvent) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['x-service-event']).toBe(event);
      expect(hook.headers['x-service-delivery']).toBe(hook.body.id);
      expect(hook.headers['webhook-id']).toBe(hook.body.id);
      expect(Number(hook.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
      expect(verify(hook, secret)).toBe(true);
      expect(hook.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        event,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        data: expect.objectContaining({ organization_id: org.organization.id }),
      });
    }
    const data = (event: string) => byEvent.get(event)?.body.data;
    expect(data('message.received')).toEqual({
      organization_id: org.organization.id,
      conversation_id: session.conversation_id,
      site_id: org.site.id,
      message: { id: visitorMessage.body.id, body: 'Hello', type: 'text', attachments: [] },
    });
    expect(data('message.sent')).toEqual({
      organization_id: org.organization.id,
      conversation_id: session.conversation_id,
      site_id: org.site.id,
      message: {
        id: agentMessage.body.id,
        body: 'Hi there',
        type: 'text',
        sender_id: org.user.id,
        attachments: [],
      },
    });
    expect(data('conversation.started')).toMatchObject({
      conversation: { id: session.conversation_id, site_id: org.site.id, status: 'waiting' },
      visitor: { id: session.visitor_id, name: 'Hook Visitor' },
    });
    expect(data('chat.closed')).toMatchObject({
      conversation_id: session.conversation_id,
      closed_by: org.user.id,
    });
    expect(data('review.submitted')).toEqual({
      organization_id: org.organization.id,
      conversation_id: session.conversation_id,
      rating: 4,
      comment: null,
    });
    expect(data('chat.missed')).toEqual({
      organization_id: org.organization.id,
      conversation_id: lonely.conversation_id,
      site_id: org.site.id,
      visitor_id: lonely.visitor_id,
    });
    expect(data('ticket.created')).toMatchObject({
      ticket: { id: ticketId, subject: 'Refund', status: 'open', source: 'dashboard' },
    });
    expect(data('ticket.assigned')).toMatchObject({
      ticket_id: ticketId,
      assigned_agent_id: member.id,
      previous_agent_id: null,
    });
    expect(data('ticket.status_changed')).toMatchObject({
      ticket_id: ticketId,
      from: 'open',
      to: 'pending',
    });
    expect(data('ticket.priority_changed')).toMatchObject({ from: 'normal', to: 'high' });
    expect(data('ticket.comment_added')).toMatchObject({
      ticket_id: ticketId,
      comment: { body: 'Refund issued', is_internal: true },
    });

    // The ticket-only endpoint got exactly its event; the other organization nothing of ours.
    await eventually(async () => onlyTickets.received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(onlyTickets.received.map((hook) => hook.body.event)).toEqual(['ticket.created']);
    expect(foreign.received).toHaveLength(0);
  });

  it('retries a failing receiver with the same delivery id until it succeeds, logging each attempt', async () => {
    const flaky = await receiver((_, index) =>
      index < 2 ? { status: 500, body: `failure ${index + 1}` } : { status: 204 },
    );
    const { id } = await subscribe(flaky.url, ['message.received']);
    const session = await widgetSession();
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'retry me' })
      .expect(201);
    await eventually(async () => flaky.received.length === 3, 15_000);
    const ids = flaky.received.map((hook) => hook.headers['x-service-delivery']);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(flaky.received.map((hook) => hook.raw)).size).toBe(1);
    // The schedule (200 ms, then 400 ms, with jitter) spaced the attempts.
    expect(flaky.received[1].at - flaky.received[0].at).toBeGreaterThanOrEqual(150);
    expect(flaky.received[2].at - flaky.received[1].at).toBeGreaterThanOrEqual(300);

    const log = await eventually(async () => {
      const res = await request(app.url)
        .get(`/api/agent/webhooks/${id}/deliveries`)
        .set(agent())
        .expect(200);
      return res.body.data[0]?.status === 'succeeded' ? res.body : undefined;
    });
    expect(log.total).toBe(1);
    // The success ended the endpoint's failure streak the two failures had started.
    const streak = await db.query(`SELECT failing_since FROM webhook_endpoints WHERE id = $1`, [
      id,
    ]);
    expect(streak.rows).toEqual([{ failing_since: null }]);
    expect(log.data[0]).toMatchObject({
      id: ids[0],
      event: 'message.received',
      attempts: 3,
      last_status_code: 204,
      next_attempt_at: null,
    });
    expect(
      log.data[0].attempt_log.map(
        (a: { attempt: number; status_code: number; response_excerpt: string }) => [
          a.attempt,
          a.status_code,
          a.response_excerpt,
        ],
      ),
    ).toEqual([
      [1, 500, 'failure 1'],
      [2, 500, 'failure 2'],
      [3, 204, ''],
    ]);

    // Sent again by hand: same id, a fourth attempt.
    const again = await request(app.url)
      .post(`/api/agent/webhooks/${id}/deliveries/${String(ids[0])}/redeliver`)
      .set(agent())
      .expect(202);
    expect(again.body.data.id).toBe(ids[0]);
    await eventually(async () => flaky.received.length === 4);
    expect(flaky.received[3].headers['x-service-delivery']).toBe(ids[0]);
    await request(app.url)
      .post(`/api/agent/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`)
      .set(agent())
      .expect(404);
  });

  it('keeps at most 4 attempts in flight per endpoint, and a slow endpoint holds back no other', async () => {
    // Slow enough that its queue lasts well past the burst (3 rounds of 1 s), yet inside the
    // attempt timeout (1.5 s): at 400 ms a loaded machine spread the burst's own posts over as
    // long as the slow queue lasted, and the last assertion became a race.
    const slow = await receiver(() => ({ status: 204, delayMs: 1000 }));
    const fast = await receiver(() => ({ status: 204 }));
    await subscribe(slow.url, ['message.received']);
    await subscribe(fast.url, ['message.received']);
    const session = await widgetSession();
    // All at once: posted one by one on a loaded machine, the messages came slower than the slow
    // endpoint answered, it never had a queue, and both endpoints finished in the same
    // millisecond (a CI failure of the last assertion that proved nothing either way).
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        request(app.url)
          .post('/api/widget/messages')
          .set('Authorization', `Bearer ${session.session_token}`)
          .send({ body: `burst ${i}` })
          .expect(201),
      ),
    );
    await eventually(
      async () => slow.received.length === 12 && fast.received.length === 12,
      20_000,
    );
    // Counted at the endpoint, not inferred from arrival times (which a loaded machine skews):
    // the service starts an attempt only after an earlier one's answer has ended.
    expect(slow.mostOpen()).toBeLessThanOrEqual(4);
    const at = slow.received.map((hook) => hook.at).sort((a, b) => a - b);
    // The fast endpoint had everything while the slow one was still working through its queue.
    expect(Math.max(...fast.received.map((hook) => hook.at))).toBeLessThan(at[at.length - 1]);
  });

  it('gives up after the last attempt, and treats redirects and timeouts as failures', async () => {
    const redirecting = await receiver(() => ({
      status: 302,
      headers: { location: 'http://127.0.0.1:1/' },
    }));
    const { id } = await subscribe(redirecting.url, ['message.received']);
    const slow = await receiver(() => ({ status: 200, delayMs: 3000 }));
    const slowHook = await subscribe(slow.url, ['message.received']);
    const session = await widgetSession();
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'nowhere to go' })
      .expect(201);
    const failed = async (endpoint: number) => {
      const res = await request(app.url)
        .get(`/api/agent/webhooks/${endpoint}/deliveries`)
        .set(agent())
        .expect(200);
      return res.body.data[0]?.status === 'failed' ? res.body.data[0] : undefined;
    };
    const redirected = await eventually(() => failed(id), 15_000);
    expect(redirected.attempts).toBe(3);
    expect(redirected.attempt_log[0]).toMatchObject({
      status_code: 302,
      error: 'redirect not followed',
    });
    expect(redirecting.received).toHaveLength(3);
    const timedOut = await eventually(() => failed(slowHook.id), 20_000);
    expect(timedOut.attempt_log[0]).toMatchObject({
      status_code: null,
      error: 'timed out after 1500 ms',
    });
  });

  it('respects Retry-After and disables an endpoint that answers 410', async () => {
    const throttled = await receiver((_, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await subscribe(throttled.url, ['message.received']);
    const gone = await receiver(() => ({ status: 410 }));
    const goneHook = await subscribe(gone.url, ['message.received']);
    const session = await widgetSession();
    const send = (body: string) =>
      request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body })
        .expect(201);
    await send('first');
    await eventually(async () => throttled.received.length === 2, 10_000);
    // The schedule said 200 ms; Retry-After said a second.
    expect(throttled.received[1].at - throttled.received[0].at).toBeGreaterThanOrEqual(950);

    const disabled = await eventually(async () => {
      const res = await request(app.url)
        .get(`/api/agent/webhooks/${goneHook.id}`)
        .set(agent())
        .expect(200);
      return res.body.data.is_active ? undefined : res.body.data;
    });
    expect(disabled).toMatchObject({ is_active: false, disabled_reason: 'gone' });
    expect(gone.received).toHaveLength(1);
    await send('second');
    await eventually(async () => throttled.received.length === 3);
    expect(gone.received).toHaveLength(1);
    const enabled = await request(app.url)
      .patch(`/api/agent/webhooks/${goneHook.id}`)
      .set(agent())
      .send({ is_active: true })
      .expect(200);
    expect(enabled.body.data).toMatchObject({
      is_active: true,
      disabled_at: null,
      disabled_reason: null,
    });
  });

  it('manages endpoints: shown-once secret stored sealed, test ping, validation, roles, tenancy', async () => {
    const target = await receiver();
    const { id, secret } = await subscribe(target.url, ['ticket.created']);
    const stored = await db.query(
      `SELECT secret_sealed, secret_prefix FROM webhook_endpoints WHERE id = $1`,
      [id],
    );
    expect(stored.rows[0].secret_sealed).not.toContain(secret.slice(6));
    expect(secret.startsWith(stored.rows[0].secret_prefix)).toBe(true);
    const read = await request(app.url).get(`/api/agent/webhooks/${id}`).set(agent()).expect(200);
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(read.body.data).toMatchObject({ id, events: ['ticket.created'], is_active: true });

    const ping = await request(app.url)
      .post(`/api/agent/webhooks/${id}/test`)
      .set(agent())
      .expect(200);
    expect(ping.body.data).toMatchObject({
      event: 'webhook.ping',
      status: 'succeeded',
      attempts: 1,
    });
    expect(target.received.at(-1)?.body).toMatchObject({
      event: 'webhook.ping',
      data: { endpoint_id: id },
    });
    expect(verify(target.received.at(-1) as ReceivedWebhook, secret)).toBe(true);

    const updated = await request(app.url)
      .patch(`/api/agent/webhooks/${id}`)
      .set(agent())
      .send({ events: ['ticket.created', 'chat.closed'], description: 'CRM sync' })
      .expect(200);
    expect(updated.body.data).toMatchObject({
      events: ['ticket.created', 'chat.closed'],
      description: 'CRM sync',
    });
    const list = await request(app.url).get('/api/agent/webhooks').set(agent()).expect(200);
    expect(list.body.data.map((e: { id: number }) => e.id)).toContain(id);

    for (const body of [
      { url: 'not a url', events: ['ticket.created'] },
      { url: target.url, events: [] },
      { url: target.url, events: ['ticket.exploded'] },
      { url: target.url },
    ]) {
      await request(app.url).post('/api/agent/webhooks').set(agent()).send(body).expect(422);
    }
    const member = await addMember(app.url, org.token, 'agent');
    await request(app.url).get('/api/agent/webhooks').set(agent(member.token)).expect(403);
    await request(app.url).get(`/api/agent/webhooks/${id}`).set(agent(other.token)).expect(404);
    await request(app.url)
      .patch(`/api/agent/webhooks/${id}`)
      .set(agent(other.token))
      .send({})
      .expect(404);
    await request(app.url)
      .post(`/api/agent/webhooks/${id}/test`)
      .set(agent(other.token))
      .expect(404);
    await request(app.url)
      .get(`/api/agent/webhooks/${id}/deliveries`)
      .set(agent(other.token))
      .expect(404);
    await request(app.url).delete(`/api/agent/webhooks/${id}`).set(agent(other.token)).expect(404);
    await request(app.url).delete(`/api/agent/webhooks/${id}`).set(agent()).expect(200);
    await request(app.url).get(`/api/agent/webhooks/${id}`).set(agent()).expect(404);
  });
});

describe('webhook safety and durability', () => {
  let databaseUrl: string;
  let org: Registered;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });

  afterAll(async () => {
    await dropTestDatabase(databaseUrl);
  });

  it('refuses http and private targets unless WEBHOOK_ALLOW_INSECURE', async () => {
    const app = await startApp({
      DATABASE_URL: databaseUrl,
      WEBHOOK_ALLOW_INSECURE: 'false',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    const target = await startReceiver();
    try {
      org = await registerOrganization(app.url, 'Careful');
      const auth = { Authorization: `Bearer ${org.token}` };
      await request(app.url)
        .post('/api/agent/webhooks')
        .set(auth)
        .send({ url: target.url, events: ['ticket.created'] })
        .expect(422)
        .expect((r) => expect(r.body.errors.url).toBeDefined());
      // https to a name that resolves to loopback, and to private literals: refused at send time.
      for (const url of [
        'https://localhost:9/hook',
        'https://127.0.0.1:9/',
        'https://[::1]:9/',
        'https://10.0.0.1/',
      ]) {
        const created = await request(app.url)
          .post('/api/agent/webhooks')
          .set(auth)
          .send({ url, events: ['ticket.created'] })
          .expect(201);
        const ping = await request(app.url)
          .post(`/api/agent/webhooks/${created.body.data.id}/test`)
          .set(auth)
          .expect(200);
        expect(ping.body.data).toMatchObject({ status: 'failed' });
        expect(ping.body.data.attempt_log[0].error).toMatch(/^refused: /);
      }
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
      await app.stop();
    }
  });

  it('delivers an event committed just before the process was killed, after the restart', async () => {
    const target = await startReceiver();
    const env = { DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_INSECURE: 'true' };
    let app = await startApp(env);
    try {
      const owner = await registerOrganization(app.url, 'Durable');
      await request(app.url)
        .post('/api/agent/webhooks')
        .set({ Authorization: `Bearer ${owner.token}` })
        .send({ url: target.url, events: ['ticket.created'] })
        .expect(201);
      await app.stop();
      // Workers off: the event is committed to the outbox and nothing relays it.
      app = await startApp({ ...env, WORKERS_ENABLED: 'false' });
      const ticket = await request(app.url)
        .post('/api/agent/tickets')
        .set({ Authorization: `Bearer ${owner.token}` })
        .send({ subject: 'Survives a crash', description: 'SIGKILL before delivery' })
        .expect(201);
      await app.kill();
      expect(target.received).toHaveLength(0);
      app = await startApp(env);
      const restarted = app;
      const hook = await eventually(async () => target.received[0], 15_000).catch((error) => {
        throw new Error(
          `${String(error)}\n${restarted.stderr()}\n${JSON.stringify(restarted.logs.slice(-20))}`,
        );
      });
      expect(hook.body).toMatchObject({
        event: 'ticket.created',
        data: { ticket: { id: ticket.body.data.id, subject: 'Survives a crash' } },
      });
    } finally {
      await target.close();
      await app.stop();
    }
  });
});
