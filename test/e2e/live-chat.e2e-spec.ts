import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect, type TestSocket } from '../utils/sockets';
import { CatchUpCursor, SETTLE_MS } from '../../web/shared/catch-up';

interface Session {
  visitor_uid: string;
  visitor_id: number;
  session_token: string;
  conversation_id: number;
}

describe('live chat: widget, inbox and real time', () => {
  let suite: TestApp;
  let app: AppProcess;
  let direct: string;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  const sockets: TestSocket[] = [];

  const init = async (body: Record<string, unknown> = {}, site = org.site): Promise<Session> =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key, ...body })
        .expect(200)
    ).body as Session;

  const open = async (namespace: '/widget' | '/agent', token: string) => {
    const socket = await connect(direct, namespace, token);
    sockets.push(socket);
    return socket;
  };

  const agent = (token = org.token) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ({ app, db, direct } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(() => suite?.stop());

  it('init makes a visitor, an unlisted open conversation and a session; resuming keeps them', async () => {
    const first = await init({
      locale: 'de',
      url: 'https://shop.example/pricing',
      page_title: 'Pricing',
      visitor_name: 'Vera',
      visitor_email: 'vera@example.com',
      mobile: '+49 30 1234567',
    });
    expect(first.visitor_uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.session_token).toMatch(/^wst_/);
    const res = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, visitor_uid: first.visitor_uid })
      .expect(200);
    expect(res.body).toMatchObject({
      status: true,
      visitor_uid: first.visitor_uid,
      visitor_id: first.visitor_id,
      conversation_id: first.conversation_id,
      visitor_profile: {
        name: 'Vera',
        email: 'vera@example.com',
        phone: '+49 30 1234567',
        pre_chat_submitted: false,
        profile_complete: true,
        account_login: { logged_in: false, identifier: null, verified_at: null },
      },
      widget_config: { pre_chat_form: { enabled: false } },
    });
    const row = await db.query(
      `SELECT language, page_url, page_title FROM visitors WHERE id = $1`,
      [first.visitor_id],
    );
    expect(row.rows[0]).toEqual({
      language: 'de',
      page_url: 'https://shop.example/pricing',
      page_title: 'Pricing',
    });
    // Not listed before the first message.
    const list = await request(app.url).get('/api/agent/conversations').set(agent()).expect(200);
    expect(list.body.data.map((c: { id: number }) => c.id)).not.toContain(first.conversation_id);

    // A UID of another site is 404; an unknown one gets a fresh visitor.
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: other.site.widget_key, visitor_uid: first.visitor_uid })
      .expect(404);
    const fresh = await init({ visitor_uid: '00000000-0000-4000-8000-000000000000' });
    expect(fresh.visitor_uid).not.toBe('00000000-0000-4000-8000-000000000000');
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, visitor_uid: 'not-a-uuid' })
      .expect(422)
      .expect((r) => expect(r.body.errors.visitor_uid).toBeDefined());
  });

  it('drives a whole chat over HTTP and both sockets', async () => {
    const session = await init({ visitor_name: 'Walter', visitor_email: 'walter@example.com' });
    const inbox = await open('/agent', org.token);
    const widget = await open('/widget', session.session_token);

    // The visitor writes; the agent sees it live.
    const sent = await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Where is my order?' })
      .expect(201);
    expect(sent.body).toMatchObject({
      message: 'Message sent.',
      conversation_id: session.conversation_id,
      sender_type: 'visitor',
      body: 'Where is my order?',
      data: { id: sent.body.id, conversation_id: session.conversation_id },
    });
    const live = await inbox.next<{ id: number; body: string; conversation_id: number }>(
      'message.created',
      (m) => m.id === sent.body.id,
    );
    expect(live).toMatchObject({
      conversation_id: session.conversation_id,
      sender_type: 'visitor',
    });
    await inbox.next(
      'conversation.updated',
      (u: { conversation_id: number; status: string }) =>
        u.conversation_id === session.conversation_id && u.status === 'waiting',
    );

    const listed = await request(app.url)
      .get('/api/agent/conversations?status=waiting&unassigned=true')
      .set(agent())
      .expect(200);
    expect(listed.body.data.map((c: { id: number }) => c.id)).toContain(session.conversation_id);
    expect(listed.body.total).toBe(listed.body.data.length);

    // Typing, both ways.
    await expect(
      inbox.ask('typing', { conversation_id: session.conversation_id, is_typing: true }),
    ).resolves.toEqual({ status: true });
    await expect(widget.next('typing')).resolves.toEqual({
      conversation_id: session.conversation_id,
      sender_type: 'agent',
      is_typing: true,
    });
    await expect(widget.ask('typing', { is_typing: true })).resolves.toEqual({ status: true });
    await expect(
      inbox.next('typing', (t: { sender_type: string }) => t.sender_type === 'visitor'),
    ).resolves.toEqual({
      conversation_id: session.conversation_id,
      sender_type: 'visitor',
      is_typing: true,
    });

    // The agent replies over HTTP; the visitor sees it live and the chat is active and assigned.
    const reply = await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/messages`)
      .set(agent())
      .send({ body: 'It ships today.' })
      .expect(201);
    expect(reply.body).toMatchObject({ sender_type: 'agent', sender_id: org.user.id });
    await expect(
      widget.next('message.created', (m: { id: number }) => m.id === reply.body.id),
    ).resolves.toMatchObject({ body: 'It ships today.', sender_type: 'agent' });
    await expect(
      widget.next('conversation.updated', (u: { status: string }) => u.status === 'active'),
    ).resolves.toEqual({
      conversation_id: session.conversation_id,
      status: 'active',
      assigned_agent_id: org.user.id,
      closed_at: null,
    });

    // Read receipts, both ways; a position never moves back nor past the last message.
    await expect(
      widget.ask('read', { conversation_id: session.conversation_id, message_id: reply.body.id }),
    ).resolves.toEqual({
      status: true,
      conversation_id: session.conversation_id,
      message_id: reply.body.id,
    });
    await expect(inbox.next('read')).resolves.toEqual({
      conversation_id: session.conversation_id,
      reader: 'visitor',
      message_id: reply.body.id,
    });
    const agentRead = await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/read`)
      .set(agent())
      .send({ message_id: sent.body.id + 1_000_000 })
      .expect(200);
    expect(agentRead.body.data.message_id).toBe(reply.body.id);
    await expect(widget.next('read')).resolves.toEqual({
      conversation_id: session.conversation_id,
      reader: 'agent',
      message_id: reply.body.id,
    });
    await expect(
      widget.ask('read', { conversation_id: session.conversation_id, message_id: sent.body.id }),
    ).resolves.toMatchObject({ message_id: reply.body.id });

    // The visitor writes over the socket too.
    const viaSocket = await widget.ask<{ status: boolean; data: { id: number; body: string } }>(
      'message',
      { body: 'Thanks!' },
    );
    expect(viaSocket).toMatchObject({ status: true, data: { body: 'Thanks!' } });
    await inbox.next('message.created', (m: { id: number }) => m.id === viaSocket.data.id);
    await expect(widget.ask('message', { body: '' })).resolves.toMatchObject({
      status: false,
      error_code: 'validation_failed',
    });

    // The agent closes; both sides hear it. The visitor reviews once.
    const closed = await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/close`)
      .set(agent())
      .expect(200);
    await expect(
      widget.next('conversation.updated', (u: { status: string }) => u.status === 'closed'),
    ).resolves.toMatchObject({ closed_at: closed.body.data.closed_at });
    await inbox.next('conversation.updated', (u: { status: string }) => u.status === 'closed');

    const review = await request(app.url)
      .post('/api/widget/reviews')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ rating: 5, comment: 'Quick and kind' })
      .expect(201);
    expect(review.body.data).toEqual({
      conversation_id: session.conversation_id,
      rating: 5,
      comment: 'Quick and kind',
    });
    await request(app.url)
      .post('/api/widget/reviews')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ rating: 1 })
      .expect(409);
    for (const rating of [0, 6, 2.5, '5']) {
      await request(app.url)
        .post('/api/widget/reviews')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ rating })
        .expect(422);
    }

    // Every change wrote its event.
    const of = async (type: string) =>
      (await outboxEvents(db, type)).filter(
        (e) =>
          (e.conversation_id ?? (e.conversation as { id?: number } | undefined)?.id) ===
          session.conversation_id,
      );
    expect(await of('conversation.started')).toEqual([
      {
        organization_id: org.organization.id,
        conversation: {
          id: session.conversation_id,
          site_id: org.site.id,
          visitor_id: session.visitor_id,
          status: 'waiting',
          started_at: expect.any(String),
        },
        visitor: { id: session.visitor_id, name: 'Walter', email: 'walter@example.com' },
      },
    ]);
    expect((await of('message.received')).map((e) => e.message)).toEqual([
      { id: sent.body.id, body: 'Where is my order?', type: 'text', attachments: [] },
      { id: viaSocket.data.id, body: 'Thanks!', type: 'text', attachments: [] },
    ]);
    expect(await of('message.sent')).toHaveLength(1);
    expect(await of('chat.closed')).toEqual([
      {
        organization_id: org.organization.id,
        conversation_id: session.conversation_id,
        site_id: org.site.id,
        closed_at: closed.body.data.closed_at,
        closed_by: org.user.id,
      },
    ]);
    expect(await of('review.submitted')).toEqual([
      {
        organization_id: org.organization.id,
        conversation_id: session.conversation_id,
        rating: 5,
        comment: 'Quick and kind',
      },
    ]);

    // After the close, the visitor's next message opens a new conversation.
    const again = await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'One more thing' })
      .expect(201);
    expect(again.body.conversation_id).not.toBe(session.conversation_id);
    const resumed = await init({ visitor_uid: session.visitor_uid });
    expect(resumed.conversation_id).toBe(again.body.conversation_id);
  });

  it('a visitor ends the chat; ending again answers the same close', async () => {
    const session = await init();
    const bearer = { Authorization: `Bearer ${session.session_token}` };
    await request(app.url).post('/api/widget/end-chat').set(bearer).send({}).expect(404);
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer)
      .send({ body: 'Hi' })
      .expect(201);
    const ended = await request(app.url)
      .post('/api/widget/end-chat')
      .set(bearer)
      .send({})
      .expect(200);
    expect(ended.body.data).toMatchObject({ id: session.conversation_id, status: 'closed' });
    const again = await request(app.url)
      .post('/api/widget/end-chat')
      .set(bearer)
      .send({})
      .expect(200);
    expect(again.body.data).toEqual(ended.body.data);
    const events = (await outboxEvents(db, 'chat.closed')).filter(
      (e) => e.conversation_id === session.conversation_id,
    );
    expect(events).toEqual([expect.objectContaining({ closed_by: null })]);
  });

  it('a reconnecting client catches up on everything after the last id it saw', async () => {
    const session = await init();
    const bearer = { Authorization: `Bearer ${session.session_token}` };
    const first = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer)
      .send({ body: 'Hello?' })
      .expect(201);
    let widget = await open('/widget', session.session_token);
    widget.close();

    // While the widget is away, the agent answers twice.
    const replies: number[] = [];
    for (const body of ['Hi!', 'How can I help?']) {
      const res = await request(app.url)
        .post(`/api/agent/conversations/${session.conversation_id}/messages`)
        .set(agent())
        .send({ body })
        .expect(201);
      replies.push(res.body.id as number);
    }

    widget = await open('/widget', session.session_token);
    const caughtUp = await widget.ask<{ status: boolean; data: { id: number; body: string }[] }>(
      'sync',
      { after_id: first.body.id },
    );
    expect(caughtUp.data.map((m) => m.id)).toEqual(replies);
    expect(caughtUp.data.map((m) => m.body)).toEqual(['Hi!', 'How can I help?']);
    const overHttp = await request(app.url)
      .get(`/api/widget/messages?after_id=${first.body.id}`)
      .set(bearer)
      .expect(200);
    expect(overHttp.body.data.map((m: { id: number }) => m.id)).toEqual(replies);
    const fromStart = await request(app.url).get('/api/widget/messages').set(bearer).expect(200);
    expect(fromStart.body.data.map((m: { id: number }) => m.id)).toEqual([
      first.body.id,
      ...replies,
    ]);
    // The visitor's UID is no login for the messages (issue 25): only the session token is.
    await request(app.url)
      .get('/api/widget/messages')
      .query({ widget_key: org.site.widget_key, visitor_uid: session.visitor_uid })
      .expect(401);

    // The inbox catches up the same way, over one conversation or all of them.
    const inbox = await open('/agent', org.token);
    const all = await inbox.ask<{ data: { id: number }[] }>('sync', { after_id: first.body.id });
    expect(all.data.map((m) => m.id)).toEqual(expect.arrayContaining(replies));
    const one = await request(app.url)
      .get(`/api/agent/conversations/${session.conversation_id}/messages?after_id=0`)
      .set(agent())
      .expect(200);
    expect(one.body.data.map((m: { id: number }) => m.id)).toEqual([first.body.id, ...replies]);
    const org2 = await request(app.url)
      .get(`/api/agent/messages?after_id=${first.body.id}`)
      .set(agent())
      .expect(200);
    expect(org2.body.data.map((m: { id: number }) => m.id)).toEqual(replies);
  });

  it('catches up on a message whose transaction committed after a later message was pushed', async () => {
    // Message ids are drawn when a message is stored and become visible when its transaction
    // commits, in another order under load: here `late` is stored in a transaction held open
    // while another conversation's message is stored and pushed.
    const [held, later] = await Promise.all([init(), init()]);
    for (const session of [held, later]) {
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body: 'Opening' })
        .expect(201);
    }
    const inbox = await open('/agent', org.token);
    // The inbox has seen everything up to now, a minute ago (catch-up.ts).
    let clock = 0;
    const cursor = new CatchUpCursor(SETTLE_MS, () => clock);
    const { rows: newest } = await db.query<{ id: string }>(
      'SELECT max(id) AS id FROM messages WHERE organization_id = $1',
      [org.organization.id],
    );
    cursor.saw(Number(newest[0].id));
    clock += SETTLE_MS;

    const client = await db.connect();
    let late: number;
    let pushed: number;
    try {
      await client.query('BEGIN');
      late = Number(
        (
          await client.query<{ id: string }>(
            `INSERT INTO messages (organization_id, conversation_id, sender_type, body)
             VALUES ($1, $2, 'visitor', 'Stored first, visible last') RETURNING id`,
            [org.organization.id, held.conversation_id],
          )
        ).rows[0].id,
      );
      const res = await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${later.session_token}`)
        .send({ body: 'Stored second, visible first' })
        .expect(201);
      pushed = (res.body as { id: number }).id;
      expect(pushed).toBeGreaterThan(late);
      await inbox.next<{ id: number }>('message.created', (m) => m.id === pushed);
      cursor.saw(pushed);
      await client.query('COMMIT');
    } finally {
      client.release();
    }

    // The connection dropped before `late` became visible, so no push brought it. Asking for
    // everything after the newest id seen skips it for good...
    const afterNewest = await inbox.ask<{ data: { id: number }[] }>('sync', { after_id: pushed });
    expect(afterNewest.data.map((m) => m.id)).not.toContain(late);
    // ...while a catch-up from the cursor brings it, and only it is new.
    const answer = await inbox.ask<{ data: { id: number }[] }>('sync', {
      after_id: cursor.afterId,
    });
    const fresh = answer.data.map((m) => m.id).filter((id) => cursor.isNew(id));
    expect(fresh).toEqual([late]);
  });

  it('assigns, filters by assignee, and keeps list totals right through every transition', async () => {
    const member = await addMember(app.url, org.token, 'agent');
    const session = await init();
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Anyone?' })
      .expect(201);
    const id = session.conversation_id;
    await request(app.url)
      .post(`/api/agent/conversations/${id}/assign`)
      .set(agent())
      .send({ agent_id: other.user.id })
      .expect(422)
      .expect((r) => expect(r.body.errors.agent_id).toBeDefined());
    const assigned = await request(app.url)
      .post(`/api/agent/conversations/${id}/assign`)
      .set(agent())
      .send({ agent_id: member.id })
      .expect(200);
    expect(assigned.body.data).toMatchObject({
      id,
      status: 'active',
      assigned_agent_id: member.id,
    });
    expect(
      (await outboxEvents(db, 'conversation.assigned')).filter((e) => e.conversation_id === id),
    ).toEqual([
      {
        organization_id: org.organization.id,
        conversation_id: id,
        site_id: org.site.id,
        assigned_agent_id: member.id,
        previous_agent_id: null,
      },
    ]);
    const mine = await request(app.url)
      .get(`/api/agent/conversations?assigned_agent_id=${member.id}`)
      .set(agent(member.token))
      .expect(200);
    expect(mine.body.data.map((c: { id: number }) => c.id)).toEqual([id]);
    expect(mine.body.total).toBe(1);

    // Totals agree with a real count for every filter.
    const filters = ['', 'status=active', 'status=closed', 'status=waiting', 'unassigned=true'];
    for (const filter of filters) {
      const res = await request(app.url)
        .get(`/api/agent/conversations?per_page=100&${filter}`)
        .set(agent())
        .expect(200);
      expect(res.body.total).toBe(res.body.data.length);
    }
    await request(app.url)
      .get('/api/agent/conversations?unassigned=maybe')
      .set(agent())
      .expect(422);
  });

  it('lets any member give a chat to a colleague and take it from its holder (unassign)', async () => {
    const ada = await addMember(app.url, org.token, 'agent');
    const ben = await addMember(app.url, org.token, 'agent');
    const session = await init();
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Hello?' })
      .expect(201);
    const id = session.conversation_id;
    const watcher = await open('/agent', org.token);
    // An agent (not an admin) hands the chat to a colleague, then takes it from them.
    await request(app.url)
      .post(`/api/agent/conversations/${id}/assign`)
      .set(agent(ada.token))
      .send({ agent_id: ben.id })
      .expect(200);
    const taken = await request(app.url)
      .post(`/api/agent/conversations/${id}/unassign`)
      .set(agent(ada.token))
      .expect(200);
    expect(taken.body.data).toMatchObject({ id, status: 'active', assigned_agent_id: null });
    await watcher.next(
      'conversation.updated',
      (e: { conversation_id: number; assigned_agent_id: number | null }) =>
        e.conversation_id === id && e.assigned_agent_id === null,
    );
    const unassigned = await request(app.url)
      .get('/api/agent/conversations?assigned_agent_id=none&per_page=100')
      .set(agent(ada.token))
      .expect(200);
    expect(unassigned.body.data.map((c: { id: number }) => c.id)).toContain(id);
    expect(
      (await outboxEvents(db, 'conversation.assigned'))
        .filter((e) => e.conversation_id === id)
        .map((e) => [e.assigned_agent_id, e.previous_agent_id]),
    ).toEqual([
      [ben.id, null],
      [null, ben.id],
    ]);
    // Again: nothing changes, nothing is recorded.
    await request(app.url)
      .post(`/api/agent/conversations/${id}/unassign`)
      .set(agent(ada.token))
      .expect(200);
    expect(
      (await outboxEvents(db, 'conversation.assigned')).filter((e) => e.conversation_id === id),
    ).toHaveLength(2);

    await request(app.url).post(`/api/agent/conversations/${id}/close`).set(agent()).expect(200);
    await request(app.url).post(`/api/agent/conversations/${id}/unassign`).set(agent()).expect(409);
    await request(app.url)
      .post(`/api/agent/conversations/${id}/unassign`)
      .set(agent(other.token))
      .expect(404);
  });

  it('reopens a closed conversation for the visitor to go on in, unless they started another', async () => {
    const ada = await addMember(app.url, org.token, 'agent');
    const session = await init();
    const bearer = { Authorization: `Bearer ${session.session_token}` };
    const say = async (body: string) =>
      (await request(app.url).post('/api/widget/messages').set(bearer).send({ body }).expect(201))
        .body.conversation_id as number;
    const id = await say('My order is late');
    const closeIt = () =>
      request(app.url).post(`/api/agent/conversations/${id}/close`).set(agent()).expect(200);
    const reopen = (token = ada.token) =>
      request(app.url).post(`/api/agent/conversations/${id}/reopen`).set(agent(token));
    const visitorSide = await open('/widget', session.session_token);
    await closeIt();

    // The widget's next init made an unstarted conversation: it gives way to the reopened one.
    const resumed = await init({ visitor_uid: session.visitor_uid });
    expect(resumed.conversation_id).not.toBe(id);
    const reopened = await reopen().expect(200);
    expect(reopened.body.data).toMatchObject({
      id,
      status: 'active',
      assigned_agent_id: ada.id,
      closed_at: null,
    });
    await visitorSide.next(
      'conversation.updated',
      (e: { conversation_id: number; status: string }) =>
        e.conversation_id === id && e.status === 'active',
    );
    expect(await say('Thanks for looking again')).toBe(id);
    // Not closed: answered unchanged.
    expect((await reopen(org.token).expect(200)).body.data.assigned_agent_id).toBe(ada.id);

    // Closed again, and the visitor has started a new conversation since: that one wins.
    await closeIt();
    expect(await say('Another question')).not.toBe(id);
    const refused = await reopen().expect(409);
    expect(refused.body.error_code).toBe('conflict');
    await request(app.url)
      .post(`/api/agent/conversations/${id}/reopen`)
      .set(agent(other.token))
      .expect(404);
  });

  it("shows agents the visitor's rating and comment on the conversation and in the visitor panel", async () => {
    const session = await init();
    const bearer = { Authorization: `Bearer ${session.session_token}` };
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer)
      .send({ body: 'Can I change my address?' })
      .expect(201);
    const id = session.conversation_id;
    const detail = async () =>
      (await request(app.url).get(`/api/agent/conversations/${id}`).set(agent()).expect(200)).body
        .data;
    expect(await detail()).toMatchObject({ rating: null, review_comment: null, reviewed_at: null });
    await request(app.url).post(`/api/agent/conversations/${id}/close`).set(agent()).expect(200);
    await request(app.url)
      .post('/api/widget/reviews')
      .set(bearer)
      .send({ rating: 4, comment: 'Fast, but I had to ask twice' })
      .expect(201);
    expect(await detail()).toMatchObject({
      rating: 4,
      review_comment: 'Fast, but I had to ask twice',
      reviewed_at: expect.any(String),
    });
    const visitorId = (await detail()).visitor_id as number;
    const panel = await request(app.url)
      .get(`/api/agent/visitors/${visitorId}`)
      .set(agent())
      .expect(200);
    expect(panel.body.data.conversations).toEqual([
      expect.objectContaining({ id, rating: 4, review_comment: 'Fast, but I had to ask twice' }),
    ]);
  });

  it('keeps organizations apart and refuses bad credentials', async () => {
    const session = await init();
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Private' })
      .expect(201);
    const id = session.conversation_id;
    const foreign = agent(other.token);
    await request(app.url).get(`/api/agent/conversations/${id}`).set(foreign).expect(404);
    await request(app.url).get(`/api/agent/conversations/${id}/messages`).set(foreign).expect(404);
    await request(app.url)
      .post(`/api/agent/conversations/${id}/messages`)
      .set(foreign)
      .send({ body: 'x' })
      .expect(404);
    await request(app.url)
      .post(`/api/agent/conversations/${id}/assign`)
      .set(foreign)
      .send({})
      .expect(404);
    await request(app.url).post(`/api/agent/conversations/${id}/close`).set(foreign).expect(404);
    await request(app.url)
      .post(`/api/agent/conversations/${id}/read`)
      .set(foreign)
      .send({ message_id: 1 })
      .expect(404);
    const otherList = await request(app.url)
      .get('/api/agent/conversations')
      .set(foreign)
      .expect(200);
    expect(otherList.body.data.map((c: { id: number }) => c.id)).not.toContain(id);

    const otherInbox = await open('/agent', other.token);
    await expect(
      otherInbox.ask('read', { conversation_id: id, message_id: 1 }),
    ).resolves.toMatchObject({ status: false, error_code: 'not_found' });
    await expect(
      otherInbox.ask('typing', { conversation_id: id, is_typing: true }),
    ).resolves.toMatchObject({ status: false, error_code: 'not_found' });

    // A visitor's key and UID are no login for messages, nor is a forged token.
    await request(app.url)
      .post('/api/widget/messages')
      .send({ widget_key: other.site.widget_key, visitor_uid: session.visitor_uid, body: 'x' })
      .expect(401);
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token.slice(0, -2)}xx`)
      .send({ body: 'x' })
      .expect(401);
    await request(app.url)
      .post('/api/widget/messages')
      .send({ widget_key: org.site.widget_key, visitor_uid: session.visitor_uid, body: 'x' })
      .expect(401);
    await expect(connect(direct, '/widget', 'wst_forged.token')).rejects.toThrow(
      'Unauthenticated.',
    );
    await expect(connect(direct, '/agent', session.session_token)).rejects.toThrow(
      'Unauthenticated.',
    );
    await request(app.url).get('/api/agent/conversations').expect(401);
  });

  it('keeps agent presence: sockets set online and offline, the agent can set away', async () => {
    const member = await addMember(app.url, org.token, 'agent');
    const status = async () =>
      (await db.query(`SELECT status, last_seen_at FROM users WHERE id = $1`, [member.id])).rows[0];
    expect((await status()).status).toBe('offline');
    const first = await open('/agent', member.token);
    const second = await open('/agent', member.token);
    expect((await status()).status).toBe('online');
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await status()).status).toBe('online');
    second.close();
    await eventually(async () => (await status()).status === 'offline');

    const away = await request(app.url)
      .patch('/api/agent/presence')
      .set(agent(member.token))
      .send({ status: 'away' })
      .expect(200);
    expect(away.body.data).toEqual({ status: 'away', last_seen_at: expect.any(String) });
    await request(app.url)
      .patch('/api/agent/presence')
      .set(agent(member.token))
      .send({ status: 'busy' })
      .expect(422);
  });

  it('keeps the presence a member chose across the dashboard closing and opening again', async () => {
    const member = await addMember(app.url, org.token, 'agent');
    const status = async () =>
      (await db.query(`SELECT status FROM users WHERE id = $1`, [member.id])).rows[0]
        .status as string;
    const choose = (presence: 'online' | 'away') =>
      request(app.url)
        .patch('/api/agent/presence')
        .set(agent(member.token))
        .send({ status: presence })
        .expect(200);

    const first = await open('/agent', member.token);
    expect(await status()).toBe('online');
    await choose('away');
    first.close();
    await eventually(async () => (await status()) === 'offline');

    // Opened again (a reload, a new tab, the next morning): Away, as chosen.
    const second = await open('/agent', member.token);
    expect(await status()).toBe('away');
    await choose('online');
    second.close();
    await eventually(async () => (await status()) === 'offline');
    await open('/agent', member.token);
    expect(await status()).toBe('online');
  });
});
