import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { connect, type TestSocket } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';
import { startReceiver } from '../utils/webhook-receiver';

const PUBLIC_URL = 'https://chat.example.test';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000dIHDR-pretend-image-data'),
]);
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Visitor {
  visitorId: number;
  conversationId: number;
  token: string;
  attachmentUrl: string;
  ticketId: number;
  appointmentId: number;
}

/**
 * Privacy (DESIGN section 12, issue 28): everything held about a visitor as JSON, its erasure in
 * one transaction (a live chat told and disconnected; report figures kept; audited without the
 * erased data; `visitor.erased`), the sites' retention, and consent before the first message.
 */
describe('privacy: export, erasure, retention, consent', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const sockets: TestSocket[] = [];
  let made = 0;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL, RETENTION_EVERY_SECONDS: '1' }));
    org = await registerOrganization(app.url, 'Acme');
    receiver = await startReceiver();
    await request(app.url)
      .post('/api/agent/webhooks')
      .set(auth(org.token))
      .send({ url: `${receiver.url}/hook`, events: ['visitor.erased'] })
      .expect(201);
  });

  afterAll(async () => {
    sockets.forEach((socket) => socket.close());
    await receiver?.close();
    await suite?.stop();
  });

  /** A visitor with a profile, a custom field, two messages (one with a file), a ticket and an appointment. */
  async function visitorWithData(name = 'Vera Visitor'): Promise<Visitor> {
    // One address a person: an erasure takes every ticket of the visitor's address.
    const email = `${name.split(' ')[0].toLowerCase()}@example.test`;
    const init = await request(app.url)
      .post('/api/widget/init')
      .send({
        widget_key: org.site.widget_key,
        visitor_name: name,
        visitor_email: email,
        visitor_phone: '+49 30 1234567',
      })
      .expect(200);
    const token = init.body.session_token as string;
    const uploaded = await request(app.url)
      .post('/api/widget/attachments')
      .set(auth(token))
      .attach('file', PNG, { filename: 'passport.png', contentType: 'image/png' })
      .expect(201);
    await request(app.url)
      .post('/api/widget/messages')
      .set(auth(token))
      .send({ body: 'My account number is 12345' })
      .expect(201);
    await request(app.url)
      .post('/api/widget/messages')
      .set(auth(token))
      .send({ body: 'Here is my passport', attachment_ids: [uploaded.body.data.id] })
      .expect(201);
    const ticket = await request(app.url)
      .post('/api/widget/tickets')
      .set(auth(token))
      .send({
        subject: 'Refund',
        description: 'Please refund order 77',
        name,
        email,
      })
      .expect(201);
    const visitorId = init.body.visitor_id as number;
    const appointment = await suite.db.query<{ id: string }>(
      `INSERT INTO appointments (organization_id, site_id, visitor_id, conversation_id,
         scheduled_at, ends_at, blocked_until, visitor_name, visitor_email, visitor_phone, notes)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => $6),
         now() + make_interval(days => $6, hours => 1), now() + make_interval(days => $6, hours => 1),
         $5, $7, '+49 30 1234567', 'Bring the receipt')
       RETURNING id`,
      [org.organization.id, org.site.id, visitorId, init.body.conversation_id, name, ++made, email],
    );
    return {
      visitorId,
      conversationId: init.body.conversation_id as number,
      token,
      attachmentUrl: uploaded.body.data.url as string,
      ticketId: ticket.body.data.id as number,
      appointmentId: Number(appointment.rows[0].id),
    };
  }

  it('exports everything held about a visitor as JSON, to owners and admins only, audited', async () => {
    const visitor = await visitorWithData();
    const res = await request(app.url)
      .get(`/api/agent/visitors/${visitor.visitorId}/export`)
      .set(auth(org.token))
      .expect(200);
    const data = res.body.data;
    expect(data.visitor).toMatchObject({
      id: visitor.visitorId,
      name: 'Vera Visitor',
      email: 'vera@example.test',
      phone: '+49 30 1234567',
      custom_fields: {},
      erased_at: null,
    });
    expect(data.consent).toEqual({ consented_at: null });
    expect(data.conversations).toHaveLength(1);
    expect(data.conversations[0].messages.map((m: { body: string }) => m.body)).toEqual([
      'My account number is 12345',
      'Here is my passport',
    ]);
    expect(data.conversations[0].messages[1].attachments).toEqual([
      expect.objectContaining({ file_name: 'passport.png', url: visitor.attachmentUrl }),
    ]);
    expect(data.tickets).toEqual([
      expect.objectContaining({
        id: visitor.ticketId,
        description: 'Please refund order 77',
        customer_email: 'vera@example.test',
      }),
    ]);
    expect(data.appointments).toEqual([
      expect.objectContaining({ id: visitor.appointmentId, notes: 'Bring the receipt' }),
    ]);

    const agent = await addMember(app.url, org.token, 'agent');
    await request(app.url)
      .get(`/api/agent/visitors/${visitor.visitorId}/export`)
      .set(auth(agent.token))
      .expect(403);
    await request(app.url)
      .delete(`/api/agent/visitors/${visitor.visitorId}`)
      .set(auth(agent.token))
      .expect(403);
    const other = await registerOrganization(app.url, 'Globex');
    await request(app.url)
      .get(`/api/agent/visitors/${visitor.visitorId}/export`)
      .set(auth(other.token))
      .expect(404);
    await request(app.url)
      .delete(`/api/agent/visitors/${visitor.visitorId}`)
      .set(auth(other.token))
      .expect(404);

    const audit = await request(app.url)
      .get('/api/agent/audit-log')
      .query({ action: 'visitor.exported' })
      .set(auth(org.token))
      .expect(200);
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'user', id: org.user.id },
      target: { type: 'visitor', id: String(visitor.visitorId) },
    });
  });

  it('erases a visitor whose chat is live: the widget is told and disconnected, all in one go', async () => {
    const visitor = await visitorWithData('Ivan Live');
    const today = new Date().toISOString().slice(0, 10);
    const report = async () =>
      (
        await request(app.url)
          .get(`/api/agent/reports/conversations?from=${today}&to=${today}`)
          .set(auth(org.token))
          .expect(200)
      ).body.data.totals;
    const before = await report();
    const widget = await connect(suite.direct, '/widget', visitor.token);
    sockets.push(widget);
    const agentSocket = await connect(suite.direct, '/agent', org.token);
    sockets.push(agentSocket);
    const disconnected = new Promise<string>((resolve) =>
      widget.socket.on('disconnect', (reason) => resolve(reason)),
    );

    const erased = await request(app.url)
      .delete(`/api/agent/visitors/${visitor.visitorId}`)
      .set(auth(org.token))
      .expect(200);
    expect(erased.body).toMatchObject({ message: 'Visitor erased.' });
    expect(erased.body.data).toMatchObject({
      visitor_id: visitor.visitorId,
      conversations: 1,
      messages: 2,
      attachments: 1,
      tickets: 1,
      appointments: 1,
    });
    expect(await widget.next('visitor.erased')).toEqual({ visitor_id: visitor.visitorId });
    expect(await disconnected).toBe('io server disconnect');
    expect(
      await agentSocket.next<{ conversation_id: number; status: string }>(
        'conversation.updated',
        (update) => update.conversation_id === visitor.conversationId,
      ),
    ).toMatchObject({ status: 'closed' });

    const db = suite.db;
    const row = (
      await db.query(
        `SELECT name, email, phone, custom_fields, erased_at, visitor_uid FROM visitors WHERE id = $1`,
        [visitor.visitorId],
      )
    ).rows[0];
    expect(row).toMatchObject({ name: null, email: null, phone: null, custom_fields: {} });
    expect(row.erased_at).not.toBeNull();
    const messages = await db.query(`SELECT 1 FROM messages WHERE conversation_id = $1`, [
      visitor.conversationId,
    ]);
    expect(messages.rows).toHaveLength(0);
    const files = await db.query(`SELECT 1 FROM attachments WHERE file_name = 'passport.png'`);
    expect(files.rows.length).toBe(1); // the first test's visitor still has its own
    await request(app.url).get(visitor.attachmentUrl.slice(PUBLIC_URL.length)).expect(404);
    const ticket = await db.query(
      `SELECT customer_name, customer_email, subject FROM tickets WHERE id = $1`,
      [visitor.ticketId],
    );
    expect(ticket.rows[0]).toEqual({
      customer_name: null,
      customer_email: null,
      subject: '[erased]',
    });
    const appointment = await db.query(
      `SELECT visitor_name, visitor_email, visitor_phone, notes FROM appointments WHERE id = $1`,
      [visitor.appointmentId],
    );
    expect(appointment.rows[0]).toEqual({
      visitor_name: 'Erased visitor',
      visitor_email: null,
      visitor_phone: null,
      notes: null,
    });
    const conversation = await db.query(
      `SELECT status, started_at, erased_at FROM conversations WHERE id = $1`,
      [visitor.conversationId],
    );
    expect(conversation.rows[0].status).toBe('closed');
    expect(conversation.rows[0].started_at).not.toBeNull();
    // Aggregate figures stay.
    expect(await report()).toEqual(before);

    // Its session is over: the token and the old UID no longer work.
    await request(app.url).get('/api/widget/messages').set(auth(visitor.token)).expect(401);

    // The audit row says how much, never what.
    const audit = await request(app.url)
      .get('/api/agent/audit-log')
      .query({ action: 'visitor.erased' })
      .set(auth(org.token))
      .expect(200);
    expect(audit.body.data[0]).toMatchObject({
      target: {
        type: 'visitor',
        id: String(visitor.visitorId),
        label: `Visitor #${visitor.visitorId}`,
      },
      changes: {
        after: { conversations: 1, messages: 2, attachments: 1, tickets: 1, appointments: 1 },
      },
    });
    const text = JSON.stringify(audit.body.data[0]);
    for (const secret of ['Ivan', 'ivan@example.test', '12345', 'passport', '+49'])
      expect(text).not.toContain(secret);

    // The webhook names the ids only.
    const deadline = Date.now() + 10_000;
    while (receiver.received.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const hook = receiver.received.find(
      (entry) => (entry.body.data as { visitor_id?: number })?.visitor_id === visitor.visitorId,
    );
    expect(hook?.headers['x-service-event']).toBe('visitor.erased');
    expect(hook?.body.data).toEqual({
      organization_id: org.organization.id,
      visitor_id: visitor.visitorId,
      site_id: org.site.id,
      conversation_ids: [visitor.conversationId],
      erased_at: erased.body.data.erased_at,
    });
    expect(hook?.raw).not.toContain('Ivan');
  });

  it('erases nothing when the erasure fails part way: one transaction', async () => {
    const visitor = await visitorWithData('Paula Partial');
    // A failure at COMMIT, after every statement of the erasure ran.
    await suite.db.query(`
      CREATE FUNCTION privacy_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused at commit'; END $$`);
    await suite.db.query(`
      CREATE CONSTRAINT TRIGGER privacy_test_refuse AFTER UPDATE ON visitors
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
      WHEN (NEW.erased_at IS NOT NULL AND OLD.erased_at IS NULL)
      EXECUTE FUNCTION privacy_test_refuse()`);
    const widget = await connect(suite.direct, '/widget', visitor.token);
    sockets.push(widget);
    try {
      // Straight to the app: the document promises no 500, rightly, and this one is forced.
      await request(suite.direct)
        .delete(`/api/agent/visitors/${visitor.visitorId}`)
        .set(auth(org.token))
        .expect(500);
    } finally {
      await suite.db.query(`DROP TRIGGER privacy_test_refuse ON visitors`);
      await suite.db.query(`DROP FUNCTION privacy_test_refuse()`);
    }
    const row = await suite.db.query(`SELECT name, erased_at FROM visitors WHERE id = $1`, [
      visitor.visitorId,
    ]);
    expect(row.rows[0]).toEqual({ name: 'Paula Partial', erased_at: null });
    const messages = await suite.db.query(`SELECT 1 FROM messages WHERE conversation_id = $1`, [
      visitor.conversationId,
    ]);
    expect(messages.rows).toHaveLength(2);
    const ticket = await suite.db.query(`SELECT customer_name FROM tickets WHERE id = $1`, [
      visitor.ticketId,
    ]);
    expect(ticket.rows[0].customer_name).toBe('Paula Partial');
    const audit = await suite.db.query(
      `SELECT 1 FROM audit_log WHERE action = 'visitor.erased' AND target_id = $1`,
      [String(visitor.visitorId)],
    );
    expect(audit.rows).toHaveLength(0);
    const events = await suite.db.query(
      `SELECT 1 FROM outbox_events WHERE event_type = 'visitor.erased' AND payload->>'visitor_id' = $1`,
      [String(visitor.visitorId)],
    );
    expect(events.rows).toHaveLength(0);
    // The widget was not told anything and still works.
    expect(widget.received('visitor.erased')).toEqual([]);
    await request(app.url).get('/api/widget/messages').set(auth(visitor.token)).expect(200);
  });

  it("erases conversations closed longer ago than the site's retention_days, daily", async () => {
    const site = await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set(auth(org.token))
      .send({ retention_days: 30 })
      .expect(200);
    expect(site.body.data.retention_days).toBe(30);
    const old = await visitorWithData('Olga Old');
    const recent = await visitorWithData('Rita Recent');
    await suite.db.query(
      `UPDATE conversations SET status = 'closed', closed_at = now() - interval '31 days'
       WHERE id = $1`,
      [old.conversationId],
    );
    await suite.db.query(
      `UPDATE conversations SET status = 'closed', closed_at = now() - interval '29 days'
       WHERE id = $1`,
      [recent.conversationId],
    );
    const erasedAt = async (id: number) =>
      (await suite.db.query(`SELECT erased_at FROM conversations WHERE id = $1`, [id])).rows[0]
        .erased_at as Date | null;
    const deadline = Date.now() + 20_000;
    while ((await erasedAt(old.conversationId)) === null && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await erasedAt(old.conversationId)).not.toBeNull();
    expect(await erasedAt(recent.conversationId)).toBeNull();
    const count = async (id: number) =>
      (await suite.db.query(`SELECT 1 FROM messages WHERE conversation_id = $1`, [id])).rows.length;
    expect(await count(old.conversationId)).toBe(0);
    expect(await count(recent.conversationId)).toBe(2);
    const audit = await suite.db.query(
      `SELECT actor_type, changes FROM audit_log WHERE action = 'conversation.retention_erased'`,
    );
    expect(audit.rows[0]).toMatchObject({
      actor_type: 'system',
      changes: { after: { conversation_ids: [old.conversationId], messages: 2, attachments: 1 } },
    });
    // null keeps forever again; a value out of range is a 422.
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set(auth(org.token))
      .send({ retention_days: 0 })
      .expect(422);
    const cleared = await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set(auth(org.token))
      .send({ retention_days: null })
      .expect(200);
    expect(cleared.body.data.retention_days).toBeNull();
  });

  it('asks for consent before the first message where the site turns it on, and records it', async () => {
    const shop = await registerOrganization(app.url, 'Shop');
    await request(app.url)
      .patch(`/api/agent/sites/${shop.site.id}`)
      .set(auth(shop.token))
      .send({
        widget_settings: {
          consent: {
            enabled: true,
            text: 'We keep this chat for 30 days.',
            privacy_url: 'https://shop.example.test/privacy',
          },
        },
      })
      .expect(200);
    const init = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: shop.site.widget_key })
      .expect(200);
    expect(init.body.widget_config.consent).toEqual({
      enabled: true,
      text: 'We keep this chat for 30 days.',
      privacy_url: 'https://shop.example.test/privacy',
    });
    expect(init.body.consented_at).toBeNull();
    const token = init.body.session_token as string;
    const refused = await request(app.url)
      .post('/api/widget/messages')
      .set(auth(token))
      .send({ body: 'Hello?' })
      .expect(422);
    expect(Object.keys(refused.body.errors)).toEqual(['consent']);
    const socket = await connect(suite.direct, '/widget', token);
    sockets.push(socket);
    // The socket is held to the same rule.
    await expect(socket.ask('message', { body: 'Hello over the socket?' })).resolves.toMatchObject({
      status: false,
      error_code: 'validation_failed',
      errors: { consent: [expect.stringContaining('must agree')] },
    });

    const agreed = await request(app.url).post('/api/widget/consent').set(auth(token)).expect(200);
    const at = agreed.body.data.consented_at as string;
    expect(new Date(at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Agreeing again keeps the first time.
    const again = await request(app.url).post('/api/widget/consent').set(auth(token)).expect(200);
    expect(again.body.data.consented_at).toBe(at);
    await request(app.url)
      .post('/api/widget/messages')
      .set(auth(token))
      .send({ body: 'Hello!' })
      .expect(201);
    const resumed = await request(app.url)
      .post('/api/widget/init')
      .set(auth(token))
      .send({ widget_key: shop.site.widget_key })
      .expect(200);
    expect(resumed.body.consented_at).toBe(at);

    const exported = await request(app.url)
      .get(`/api/agent/visitors/${init.body.visitor_id}/export`)
      .set(auth(shop.token))
      .expect(200);
    expect(exported.body.data.consent).toEqual({ consented_at: at });

    // A site without consent asks nothing.
    const plain = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key })
      .expect(200);
    expect(plain.body.widget_config.consent.enabled).toBe(false);
    await request(app.url)
      .post('/api/widget/messages')
      .set(auth(plain.body.session_token))
      .send({ body: 'Hi' })
      .expect(201);
  });
});
