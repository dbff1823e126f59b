import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import type { AppProcess } from '../utils/app-process';
import { connect } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

interface Listed {
  id: number;
  snoozed_until: string | null;
}

/** Snooze until a time (issue 26) and the hand-over with a private note. */
describe('agent API: snooze and hand-over', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
  const snooze = (id: number, until: string | null, token = org.token) =>
    request(app.url).post(`/api/agent/conversations/${id}/snooze`).set(auth(token)).send({ until });
  const listed = async (
    query: string,
  ): Promise<{ ids: number[]; total: number; rows: Listed[] }> => {
    const res = await request(app.url)
      .get(`/api/agent/conversations?${query}`)
      .set(auth(org.token))
      .expect(200);
    const rows = res.body.data as Listed[];
    return { ids: rows.map((r) => r.id), total: res.body.total as number, rows };
  };

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
  });

  afterAll(() => suite?.stop());

  it('takes a snoozed chat out of the open views until the visitor writes', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['Where is my order?']);
    const before = await listed('per_page=100');
    expect(before.ids).toContain(chat.id);

    const until = inFuture(3_600_000);
    const res = await snooze(chat.id, until).expect(200);
    expect(res.body.data).toEqual({ id: chat.id, snoozed_until: until });
    const open = await listed('per_page=100');
    expect(open.ids).not.toContain(chat.id);
    expect(open.total).toBe(before.total - 1);
    const snoozed = await listed('snoozed=true');
    expect(snoozed.rows).toEqual([expect.objectContaining({ id: chat.id, snoozed_until: until })]);
    expect(snoozed.total).toBe(1);
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${chat.id}`)
      .set(auth(org.token))
      .expect(200);
    expect(detail.body.data.snoozed_until).toBe(until);

    // The visitor writes: it wakes.
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ body: 'Any news?' })
      .expect(201);
    expect((await listed('per_page=100')).ids).toContain(chat.id);
    expect((await listed('snoozed=true')).ids).toEqual([]);
  });

  it('wakes a chat when its time passes and tells the agents', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['Call me back later']);
    const agent = await connect(suite.direct, '/agent', org.token);
    try {
      await snooze(chat.id, inFuture(1_500)).expect(200);
      const pushed = await agent.next<{ conversation_id: number; snoozed_until: string | null }>(
        'conversation.updated',
        (e) => e.conversation_id === chat.id,
      );
      expect(pushed.snoozed_until).not.toBeNull();
      expect((await listed('per_page=100')).ids).not.toContain(chat.id);
      // The sweep clears it and pushes the wake-up.
      await agent.next<{ conversation_id: number; snoozed_until: string | null }>(
        'conversation.updated',
        (e) => e.conversation_id === chat.id && e.snoozed_until === null,
        20_000,
      );
      expect((await listed('per_page=100')).ids).toContain(chat.id);
    } finally {
      agent.close();
    }
  });

  it('wakes by hand, refuses a past or far time, a closed chat and another organization', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['Hello']);
    await snooze(chat.id, inFuture(60_000)).expect(200);
    const woken = await snooze(chat.id, null).expect(200);
    expect(woken.body.data.snoozed_until).toBeNull();
    expect((await listed('per_page=100')).ids).toContain(chat.id);

    const past = await snooze(chat.id, new Date(Date.now() - 1000).toISOString()).expect(422);
    expect(past.body.errors.until).toEqual(['The until field must be a time to come.']);
    await snooze(chat.id, inFuture(400 * 24 * 3600 * 1000)).expect(422);
    const garbage = await snooze(chat.id, 'tomorrow').expect(422);
    expect(garbage.body.errors.until).toBeDefined();
    await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/snooze`)
      .set(auth(org.token))
      .send({})
      .expect(422);
    await snooze(chat.id, inFuture(60_000), other.token).expect(404);

    await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/close`)
      .set(auth(org.token))
      .expect(200);
    await snooze(chat.id, inFuture(60_000)).expect(409);
  });

  it('closing a snoozed chat ends the snooze', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['Bye']);
    await snooze(chat.id, inFuture(60_000)).expect(200);
    await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/close`)
      .set(auth(org.token))
      .expect(200);
    expect((await listed('status=closed')).ids).toContain(chat.id);
    expect((await listed('snoozed=true')).ids).not.toContain(chat.id);
  });

  it('hands over: assigns and leaves a private note in one step, or neither', async () => {
    const ada = await addMember(app.url, org.token, 'agent');
    const chat = await startWidgetChat(app.url, org.site, ['I need a refund']);
    const res = await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/assign`)
      .set(auth(org.token))
      .send({ agent_id: ada.id, note: 'Refund approved, please process it.' })
      .expect(200);
    expect(res.body.data.assigned_agent_id).toBe(ada.id);
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${chat.id}`)
      .set(auth(ada.token))
      .expect(200);
    const note = (detail.body.data.messages as { body: string; private: boolean }[]).at(-1);
    expect(note).toMatchObject({ body: 'Refund approved, please process it.', private: true });
    // The visitor never sees it.
    const visitorSide = await request(app.url)
      .get('/api/widget/messages')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .expect(200);
    expect(JSON.stringify(visitorSide.body)).not.toContain('Refund approved');

    // A refused assignee: no note either (one transaction).
    const refused = await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/assign`)
      .set(auth(org.token))
      .send({ agent_id: 999999, note: 'Should not stay' })
      .expect(422);
    expect(refused.body.errors.agent_id).toBeDefined();
    const after = await request(app.url)
      .get(`/api/agent/conversations/${chat.id}`)
      .set(auth(org.token))
      .expect(200);
    expect(JSON.stringify(after.body.data.messages)).not.toContain('Should not stay');
    await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/assign`)
      .set(auth(org.token))
      .send({ agent_id: ada.id, note: '' })
      .expect(422);
  });
});
