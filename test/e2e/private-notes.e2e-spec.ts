import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect, type TestSocket } from '../utils/sockets';

interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
}

interface Message {
  id: number;
  body: string;
  private: boolean;
  conversation_id?: number;
}

describe('private notes: agents only', () => {
  let suite: TestApp;
  let app: AppProcess;
  let direct: string;
  let db: Pool;
  let org: Registered;
  const sockets: TestSocket[] = [];

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const open = async (namespace: '/widget' | '/agent', token: string) => {
    const socket = await connect(direct, namespace, token);
    sockets.push(socket);
    return socket;
  };
  /** A visitor with a started (waiting) conversation. */
  const chat = async (): Promise<Session> => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key })
        .expect(200)
    ).body as Session;
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(session.session_token))
      .send({ body: 'Hello, anyone there?' })
      .expect(201);
    return session;
  };
  const post = (conversationId: number, body: Record<string, unknown>) =>
    request(app.url)
      .post(`/api/agent/conversations/${conversationId}/messages`)
      .set(bearer(org.token))
      .send(body);

  beforeAll(async () => {
    ({ app, db, direct } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(() => suite?.stop());

  it('the visitor never sees a note: not live, not in GET messages, not in sync, not in its unread count', async () => {
    const session = await chat();
    const widget = await open('/widget', session.session_token);
    const agentSocket = await open('/agent', org.token);

    const note = await post(session.conversation_id, {
      body: 'Customer is on the legacy plan, careful.',
      private: true,
    }).expect(201);
    expect(note.body).toMatchObject({
      status: true,
      message: 'Message sent.',
      private: true,
      sender_type: 'agent',
      data: { private: true, body: 'Customer is on the legacy plan, careful.' },
    });
    const seenByAgents = await agentSocket.next<Message>(
      'message.created',
      (m) => m.id === note.body.id,
    );
    expect(seenByAgents.private).toBe(true);

    // A reply after the note: once the widget has it, the note would have arrived before it.
    const reply = await post(session.conversation_id, { body: 'Hi! How can I help?' }).expect(201);
    expect(reply.body.private).toBe(false);
    await widget.next<Message>('message.created', (m) => m.id === reply.body.id);
    const live = widget.received<Message>('message.created');
    expect(live.map((m) => m.id)).toEqual([reply.body.id]);

    const listed = await request(app.url)
      .get('/api/widget/messages')
      .set(bearer(session.session_token))
      .expect(200);
    expect(listed.body.data.map((m: Message) => m.body)).toEqual([
      'Hello, anyone there?',
      'Hi! How can I help?',
    ]);
    expect(listed.body.data.every((m: Message) => m.private === false)).toBe(true);
    const afterNote = await request(app.url)
      .get('/api/widget/messages')
      .query({ after_id: note.body.id - 1 })
      .set(bearer(session.session_token))
      .expect(200);
    expect(afterNote.body.data.map((m: Message) => m.id)).toEqual([reply.body.id]);
    const synced = await widget.ask<{ data: Message[] }>('sync', { after_id: 0 });
    expect(synced.data.map((m) => m.id)).not.toContain(note.body.id);
    expect(synced.data).toHaveLength(2);
    const init = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, visitor_uid: session.visitor_uid })
      .expect(200);
    expect(init.body.unread_count).toBe(1);

    // Reading "up to everything" stops at the last message the visitor can see.
    const read = await widget.ask<{ message_id: number }>('read', {
      conversation_id: session.conversation_id,
      message_id: 1_000_000,
    });
    expect(read.message_id).toBe(reply.body.id);

    // Agents and the public API see the note, marked.
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${session.conversation_id}`)
      .set(bearer(org.token))
      .expect(200);
    expect(detail.body.data.messages.map((m: Message) => [m.body, m.private])).toEqual([
      ['Hello, anyone there?', false],
      ['Customer is on the legacy plan, careful.', true],
      ['Hi! How can I help?', false],
    ]);
    const { key } = await createApiKey(app.url, org.token, ['conversations:read']);
    const publicList = await request(app.url)
      .get(`/api/v1/conversations/${session.conversation_id}/messages`)
      .set(bearer(key))
      .expect(200);
    expect(publicList.body.data.find((m: Message) => m.id === note.body.id)).toMatchObject({
      private: true,
    });
  });

  it('a note emits no message.sent and leaves the status and assignment alone; closed chats take notes, not replies', async () => {
    const session = await chat();
    const note = await post(session.conversation_id, {
      body: 'Internal only',
      private: true,
    }).expect(201);
    const conversation = await request(app.url)
      .get(`/api/agent/conversations/${session.conversation_id}`)
      .set(bearer(org.token))
      .expect(200);
    expect(conversation.body.data).toMatchObject({ status: 'waiting', assigned_agent_id: null });
    const sent = await outboxEvents(db, 'message.sent');
    expect(sent.some((e) => (e.message as { id: number }).id === note.body.id)).toBe(false);
    const { rows } = await db.query<{ event_type: string }>(
      `SELECT event_type FROM outbox_events WHERE payload->'message'->>'id' = $1`,
      [String(note.body.id)],
    );
    expect(rows).toEqual([]);

    await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/close`)
      .set(bearer(org.token))
      .expect(200);
    await post(session.conversation_id, { body: 'Follow up by phone.', private: true }).expect(201);
    await post(session.conversation_id, { body: 'Are you still there?' }).expect(409);
    const bad = await post(session.conversation_id, { body: 'x', private: 'yes' }).expect(422);
    expect(bad.body.errors).toHaveProperty('private');
  });
});
