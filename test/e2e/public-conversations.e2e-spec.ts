import type { Pool } from 'pg';
import request from 'supertest';
import { createConversation, outboxEvents } from '../factories/conversations';
import {
  addMember,
  createApiKey,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

describe('public API: conversations and messages', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let key: string;

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url);
    ({ key } = await createApiKey(app.url, org.token, [
      'conversations:read',
      'conversations:write',
    ]));
  });

  afterAll(() => suite?.stop());

  const seed = (overrides: Partial<Parameters<typeof createConversation>[1]> = {}) =>
    createConversation(db, {
      organizationId: org.organization.id,
      siteId: org.site.id,
      ...overrides,
    });
  const api = () => ({
    get: (p: string) => request(app.url).get(p).set('X-Service-Key', key),
    post: (p: string) => request(app.url).post(p).set('X-Service-Key', key),
  });

  it('lists started conversations newest first with their visitor, filtered by status and site', async () => {
    const waiting = await seed({ visitorName: 'Wendy' });
    const closed = await seed({ status: 'closed' });
    const notStarted = await seed({ started: false, messages: [] });
    const otherSite = await request(app.url)
      .post('/api/agent/sites')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ name: 'Second' })
      .expect(201);
    const elsewhere = await seed({ siteId: otherSite.body.data.id });

    const all = await api().get('/api/v1/conversations').expect(200);
    const ids = all.body.data.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([waiting.id, closed.id, elsewhere.id]));
    expect(ids).not.toContain(notStarted.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(all.body).toMatchObject({ current_page: 1, per_page: 50 });
    const wendy = all.body.data.find((c: { id: number }) => c.id === waiting.id);
    expect(wendy).toEqual({
      id: waiting.id,
      site_id: org.site.id,
      visitor_id: waiting.visitorId,
      status: 'waiting',
      type: 'visitor',
      locale: 'en',
      assigned_agent_id: null,
      started_at: expect.any(String),
      closed_at: null,
      visitor: { id: waiting.visitorId, name: 'Wendy', email: 'vera@example.test' },
    });

    const onlyClosed = await api().get('/api/v1/conversations?status=closed').expect(200);
    expect(onlyClosed.body.data.every((c: { status: string }) => c.status === 'closed')).toBe(true);
    expect(onlyClosed.body.data.map((c: { id: number }) => c.id)).toContain(closed.id);
    const bySite = await api()
      .get(`/api/v1/conversations?site_id=${otherSite.body.data.id}`)
      .expect(200);
    expect(bySite.body.data.map((c: { id: number }) => c.id)).toEqual([elsewhere.id]);
    expect(bySite.body.total).toBe(1);

    const bad = await api()
      .get('/api/v1/conversations?status=open&site_id=x&per_page=101')
      .expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['per_page', 'site_id', 'status']);
  });

  it('reads one conversation with every message, oldest first', async () => {
    const c = await seed({
      messages: [
        { sender: 'visitor', body: 'one' },
        { sender: 'agent', body: 'two', senderId: org.user.id },
        { sender: 'visitor', body: 'three' },
      ],
    });
    const res = await api().get(`/api/v1/conversations/${c.id}`).expect(200);
    expect(res.body.data).toMatchObject({ id: c.id, status: 'waiting' });
    expect(res.body.data.messages.map((m: { body: string }) => m.body)).toEqual([
      'one',
      'two',
      'three',
    ]);
    expect(res.body.data.messages[1]).toEqual({
      id: c.messageIds[1],
      body: 'two',
      type: 'text',
      sender_type: 'agent',
      sender_id: org.user.id,
      created_at: expect.any(String),
      attachments: [],
      private: false,
      sender_mismatch: false,
    });
  });

  it('pages messages newest first', async () => {
    const c = await seed({
      messages: Array.from({ length: 5 }, (_, i) => ({
        sender: 'visitor' as const,
        body: `m${i}`,
      })),
    });
    const first = await api().get(`/api/v1/conversations/${c.id}/messages?per_page=2`).expect(200);
    expect(first.body.data.map((m: { body: string }) => m.body)).toEqual(['m4', 'm3']);
    expect(first.body).toMatchObject({ total: 5, last_page: 3, per_page: 2 });
    expect(first.body.links.next).toBe(
      `https://chat.example.test/api/v1/conversations/${c.id}/messages?per_page=2&page=2`,
    );
    const last = await api()
      .get(`/api/v1/conversations/${c.id}/messages?per_page=2&page=3`)
      .expect(200);
    expect(last.body.data.map((m: { body: string }) => m.body)).toEqual(['m0']);
  });

  it('sends an agent reply as the key creator: 201, the chat becomes active and assigned, message.sent is written', async () => {
    const c = await seed();
    const res = await api()
      .post(`/api/v1/conversations/${c.id}/messages`)
      .send({ body: 'On it!' })
      .expect(201);
    const expected = {
      id: expect.any(Number),
      body: 'On it!',
      type: 'text',
      sender_type: 'agent',
      sender_id: org.user.id,
      created_at: expect.any(String),
      attachments: [],
      private: false,
      sender_mismatch: false,
    };
    expect(res.body.data).toEqual(expected);
    expect(res.body).toMatchObject({
      ...expected,
      status: true,
      code: '201',
      message: 'Message sent.',
    });

    const after = await api().get(`/api/v1/conversations/${c.id}`).expect(200);
    expect(after.body.data).toMatchObject({ status: 'active', assigned_agent_id: org.user.id });
    const events = await outboxEvents(db, 'message.sent');
    expect(events).toContainEqual({
      organization_id: org.organization.id,
      conversation_id: c.id,
      site_id: org.site.id,
      message: {
        id: res.body.id,
        body: 'On it!',
        type: 'text',
        sender_id: org.user.id,
        attachments: [],
      },
    });
  });

  it('turns a missed chat active on reply and lets agent_user_id choose the sender', async () => {
    const c = await seed({ status: 'missed' });
    const member = await addMember(app.url, org.token, 'agent');
    const res = await api()
      .post(`/api/v1/conversations/${c.id}/messages`)
      .send({ body: 'Sorry!', agent_user_id: member.id })
      .expect(201);
    expect(res.body.sender_id).toBe(member.id);
    const after = await api().get(`/api/v1/conversations/${c.id}`).expect(200);
    expect(after.body.data).toMatchObject({ status: 'active', assigned_agent_id: member.id });
  });

  it.each([
    [{}, 'body'],
    [{ body: '' }, 'body'],
    [{ body: 'x'.repeat(5001) }, 'body'],
    [{ body: 42 }, 'body'],
    [{ body: 'ok', agent_user_id: 'me' }, 'agent_user_id'],
  ])('refuses %j with 422 naming %s', async (payload, field) => {
    const c = await seed();
    const res = await api()
      .post(`/api/v1/conversations/${c.id}/messages`)
      .send(payload)
      .expect(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('accepts a body of exactly 5000 characters', async () => {
    const c = await seed();
    await api()
      .post(`/api/v1/conversations/${c.id}/messages`)
      .send({ body: 'y'.repeat(5000) })
      .expect(201);
  });

  it('refuses an agent_user_id of another organization, and a key whose creator left, with 422', async () => {
    const c = await seed();
    const other = await registerOrganization(app.url, 'Other');
    const res = await api()
      .post(`/api/v1/conversations/${c.id}/messages`)
      .send({ body: 'x', agent_user_id: other.user.id })
      .expect(422);
    expect(Object.keys(res.body.errors)).toEqual(['agent_user_id']);

    const admin = await addMember(app.url, org.token, 'admin');
    const { key: orphanKey } = await createApiKey(app.url, admin.token, ['conversations:write']);
    await request(app.url)
      .delete(`/api/agent/team/${admin.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    const orphan = await request(app.url)
      .post(`/api/v1/conversations/${c.id}/messages`)
      .set('X-Service-Key', orphanKey)
      .send({ body: 'x' })
      .expect(422);
    expect(Object.keys(orphan.body.errors)).toEqual(['agent_user_id']);
    await request(app.url)
      .post(`/api/v1/conversations/${c.id}/messages`)
      .set('X-Service-Key', orphanKey)
      .send({ body: 'x', agent_user_id: org.user.id })
      .expect(201);
  });

  it('closes once: the second close answers the original closed_at and emits nothing; replies then get 409', async () => {
    const c = await seed();
    const first = await api().post(`/api/v1/conversations/${c.id}/close`).send({}).expect(200);
    expect(first.body.data).toEqual({ id: c.id, status: 'closed', closed_at: expect.any(String) });
    const second = await api().post(`/api/v1/conversations/${c.id}/close`).send({}).expect(200);
    expect(second.body.data.closed_at).toBe(first.body.data.closed_at);
    const events = (await outboxEvents(db, 'chat.closed')).filter(
      (e) => e.conversation_id === c.id,
    );
    expect(events).toEqual([
      {
        organization_id: org.organization.id,
        conversation_id: c.id,
        site_id: org.site.id,
        closed_at: first.body.data.closed_at,
        closed_by: org.user.id,
      },
    ]);
    const reply = await api()
      .post(`/api/v1/conversations/${c.id}/messages`)
      .send({ body: 'late' })
      .expect(409);
    expect(reply.body).toMatchObject({
      error_code: 'conflict',
      message: 'The conversation is closed.',
    });
  });

  it('gates reads and writes by ability', async () => {
    const c = await seed();
    const { key: readOnly } = await createApiKey(app.url, org.token, ['conversations:read']);
    const { key: writeOnly } = await createApiKey(app.url, org.token, ['conversations:write']);
    const missing = (ability: string) => ({
      error_code: 'missing_ability',
      message: `API key missing required ability: ${ability}`,
    });
    expect(
      (
        await request(app.url)
          .post(`/api/v1/conversations/${c.id}/messages`)
          .set('X-Service-Key', readOnly)
          .send({ body: 'x' })
          .expect(403)
      ).body,
    ).toMatchObject(missing('conversations:write'));
    expect(
      (
        await request(app.url)
          .post(`/api/v1/conversations/${c.id}/close`)
          .set('X-Service-Key', readOnly)
          .send({})
          .expect(403)
      ).body,
    ).toMatchObject(missing('conversations:write'));
    for (const path of [
      '/api/v1/conversations',
      `/api/v1/conversations/${c.id}`,
      `/api/v1/conversations/${c.id}/messages`,
    ]) {
      expect(
        (await request(app.url).get(path).set('X-Service-Key', writeOnly).expect(403)).body,
      ).toMatchObject(missing('conversations:read'));
    }
  });

  it("answers 404 for another organization's conversation on every route, and for unknown ids", async () => {
    const other = await registerOrganization(app.url, 'Other');
    const theirs = await createConversation(db, {
      organizationId: other.organization.id,
      siteId: other.site.id,
    });
    const notStarted = await seed({ started: false, messages: [] });
    for (const id of [theirs.id, notStarted.id, 999999999, 'abc']) {
      await api().get(`/api/v1/conversations/${id}`).expect(404);
      await api().get(`/api/v1/conversations/${id}/messages`).expect(404);
      await api().post(`/api/v1/conversations/${id}/messages`).send({ body: 'x' }).expect(404);
      await api().post(`/api/v1/conversations/${id}/close`).send({}).expect(404);
    }
    const list = await api().get('/api/v1/conversations?per_page=100').expect(200);
    expect(list.body.data.map((c: { id: number }) => c.id)).not.toContain(theirs.id);
  });

  it('keeps list totals exact when many first replies move chats to active at once', async () => {
    const chats = await Promise.all(
      Array.from({ length: 12 }, (_, i) => seed({ status: i % 2 === 0 ? 'waiting' : 'missed' })),
    );
    const replies = await Promise.all(
      chats.map((chat) =>
        api().post(`/api/v1/conversations/${chat.id}/messages`).send({ body: 'On it.' }),
      ),
    );
    expect(replies.map((res) => res.status)).toEqual(chats.map(() => 201));
    for (const status of ['', 'waiting', 'missed', 'active', 'closed']) {
      const res = await api()
        .get(`/api/v1/conversations?per_page=100${status ? `&status=${status}` : ''}`)
        .expect(200);
      expect([status, res.body.total]).toEqual([status, res.body.data.length]);
    }
    const active = await api().get('/api/v1/conversations?per_page=100&status=active').expect(200);
    const activeIds = active.body.data.map((c: { id: number }) => c.id);
    expect(activeIds).toEqual(expect.arrayContaining(chats.map((chat) => chat.id)));
  });
});
