import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import type { AppProcess } from '../utils/app-process';
import { connect } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

interface Detail {
  status: string;
  assigned_agent_id: number | null;
  snoozed_until: string | null;
  labels: { name: string }[];
  messages: { body: string; sender_type: string; sender_id: number | null }[];
}

/** Macros (issue 26): kept by owners and admins, run by every member in one transaction. */
describe('agent API: macros', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;
  let agent: { id: number; token: string };
  let colleague: { id: number; token: string };
  let canned: number;
  let billing: number;
  let vip: number;

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
    delete: (url: string) => request(app.url).delete(url).set('Authorization', `Bearer ${token}`),
  });
  const detail = async (id: number): Promise<Detail> =>
    (await as(org.token).get(`/api/agent/conversations/${id}`).expect(200)).body.data as Detail;
  const createMacro = async (name: string, actions: object[]): Promise<number> =>
    (await as(org.token).post('/api/agent/macros', { name, actions }).expect(201)).body.data
      .id as number;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    agent = await addMember(app.url, org.token, 'agent');
    colleague = await addMember(app.url, org.token, 'agent');
    canned = (
      await as(org.token)
        .post('/api/agent/canned-responses', {
          shortcut: 'refund',
          body: 'Your refund is on its way.',
        })
        .expect(201)
    ).body.data.id as number;
    billing = (
      await as(org.token)
        .post('/api/agent/labels', { name: 'Billing', color: '#1f6feb' })
        .expect(201)
    ).body.data.id as number;
    vip = (
      await as(org.token).post('/api/agent/labels', { name: 'VIP', color: '#d29922' }).expect(201)
    ).body.data.id as number;
  });

  afterAll(() => suite?.stop());

  it('owners and admins write macros; every member reads them', async () => {
    const created = await as(org.token)
      .post('/api/agent/macros', {
        name: 'Refund and close',
        actions: [
          { type: 'reply', canned_response_id: canned, label_ids: [billing] },
          { type: 'add_labels', label_ids: [billing, billing] },
          { type: 'assign', agent_id: colleague.id },
          { type: 'close' },
        ],
      })
      .expect(201);
    // Only the fields each action's type uses are kept.
    expect(created.body).toMatchObject({
      message: 'Macro created.',
      data: {
        name: 'Refund and close',
        created_by_user_id: org.user.id,
        actions: [
          { type: 'reply', canned_response_id: canned },
          { type: 'add_labels', label_ids: [billing] },
          { type: 'assign', agent_id: colleague.id },
          { type: 'close' },
        ],
      },
    });
    expect(created.body.data.actions[0]).not.toHaveProperty('label_ids');
    const id = created.body.data.id as number;

    await as(agent.token)
      .post('/api/agent/macros', { name: 'Mine', actions: [{ type: 'close' }] })
      .expect(403);
    await as(agent.token).patch(`/api/agent/macros/${id}`, { name: 'Mine' }).expect(403);
    await as(agent.token).delete(`/api/agent/macros/${id}`).expect(403);
    const listed = await as(agent.token).get('/api/agent/macros').expect(200);
    expect(listed.body.data.map((m: { name: string }) => m.name)).toContain('Refund and close');
    expect((await as(other.token).get('/api/agent/macros').expect(200)).body.data).toEqual([]);
    await as(other.token).patch(`/api/agent/macros/${id}`, { name: 'Theirs' }).expect(404);

    const renamed = await as(org.token)
      .patch(`/api/agent/macros/${id}`, { name: 'Refund, label and close' })
      .expect(200);
    expect(renamed.body.data.actions).toHaveLength(4);
  });

  it('rejects actions that are incomplete or name what is not the organization’s, field by field', async () => {
    const foreignLabel = (
      await as(other.token)
        .post('/api/agent/labels', { name: 'Theirs', color: '#000000' })
        .expect(201)
    ).body.data.id as number;
    const bad = await as(org.token)
      .post('/api/agent/macros', {
        name: '  ',
        actions: [
          { type: 'reply' },
          { type: 'add_labels', label_ids: [foreignLabel] },
          { type: 'assign', agent_id: other.user.id },
          { type: 'set_status', status: 'snoozed' },
          { type: 'explode' },
        ],
      })
      .expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'actions.0.canned_response_id',
      'actions.3.snooze_minutes',
      'actions.4.type',
      'name',
    ]);
    const references = await as(org.token)
      .post('/api/agent/macros', {
        name: 'Foreign',
        actions: [
          { type: 'reply', canned_response_id: 999999 },
          { type: 'add_labels', label_ids: [foreignLabel] },
          { type: 'assign', agent_id: other.user.id },
        ],
      })
      .expect(422);
    expect(Object.keys(references.body.errors).sort()).toEqual([
      'actions.0.canned_response_id',
      'actions.1.label_ids',
      'actions.2.agent_id',
    ]);
    const empty = await as(org.token)
      .post('/api/agent/macros', { name: 'Empty', actions: [] })
      .expect(422);
    expect(empty.body.errors.actions).toEqual(['A macro needs at least one action.']);
    await createMacro('Close it', [{ type: 'close' }]);
    const taken = await as(org.token)
      .post('/api/agent/macros', { name: 'CLOSE IT', actions: [{ type: 'close' }] })
      .expect(422);
    expect(taken.body.errors.name).toEqual(['Another macro already has this name.']);
  });

  it('an agent runs a macro as themselves: reply, labels, assignment and close in one step', async () => {
    const id = await createMacro('Refund for VIPs', [
      { type: 'reply', canned_response_id: canned },
      { type: 'add_labels', label_ids: [billing, vip] },
      { type: 'assign', agent_id: colleague.id },
      { type: 'close' },
    ]);
    const chat = await startWidgetChat(app.url, org.site, ['Where is my refund?']);
    const watcher = await connect(suite.direct, '/agent', org.token);
    try {
      const labelled = watcher.next<{ conversation_id: number; labels: { name: string }[] }>(
        'conversation.labels',
        (e) => e.conversation_id === chat.id,
      );
      const ran = await as(agent.token)
        .post(`/api/agent/macros/${id}/run`, { conversation_id: chat.id })
        .expect(200);
      expect(ran.body).toMatchObject({
        message: 'Macro run.',
        data: { macro_id: id, conversation_id: chat.id, actions_run: 4 },
      });
      expect((await labelled).labels.map((l) => l.name)).toEqual(['Billing', 'VIP']);
    } finally {
      watcher.close();
    }
    const after = await detail(chat.id);
    expect(after.status).toBe('closed');
    expect(after.assigned_agent_id).toBe(colleague.id);
    expect(after.labels.map((l) => l.name)).toEqual(['Billing', 'VIP']);
    expect(after.messages.at(-1)).toMatchObject({
      body: 'Your refund is on its way.',
      sender_type: 'agent',
      sender_id: agent.id,
    });
  });

  it('is all or nothing: an action that fails undoes those before it', async () => {
    const labelThenReply = await createMacro('Label then reply', [
      { type: 'add_labels', label_ids: [vip] },
      { type: 'assign' },
      { type: 'reply', canned_response_id: canned },
    ]);
    const chat = await startWidgetChat(app.url, org.site, ['Hello']);
    await as(org.token).post(`/api/agent/conversations/${chat.id}/close`, {}).expect(200);
    const before = await detail(chat.id);

    const refused = await as(agent.token)
      .post(`/api/agent/macros/${labelThenReply}/run`, { conversation_id: chat.id })
      .expect(409);
    expect(refused.body.message).toBe('The conversation is closed.');
    const after = await detail(chat.id);
    expect(after.labels).toEqual([]);
    expect(after.messages).toHaveLength(before.messages.length);

    // A canned response deleted since the macro was saved: refused before anything runs.
    const temporary = (
      await as(org.token)
        .post('/api/agent/canned-responses', { shortcut: 'soon-gone', body: 'Bye' })
        .expect(201)
    ).body.data.id as number;
    const stale = await createMacro('Stale', [
      { type: 'add_labels', label_ids: [billing] },
      { type: 'reply', canned_response_id: temporary },
    ]);
    await as(org.token).delete(`/api/agent/canned-responses/${temporary}`).expect(200);
    const open = await startWidgetChat(app.url, org.site, ['Hi']);
    await as(agent.token)
      .post(`/api/agent/macros/${stale}/run`, { conversation_id: open.id })
      .expect(409);
    expect((await detail(open.id)).labels).toEqual([]);
  });

  it('sets the status: snoozes for a while, and opens a closed conversation again', async () => {
    const snooze = await createMacro('Snooze an hour', [
      { type: 'assign' },
      { type: 'set_status', status: 'snoozed', snooze_minutes: 60 },
    ]);
    const chat = await startWidgetChat(app.url, org.site, ['Call me later']);
    const started = Date.now();
    await as(agent.token)
      .post(`/api/agent/macros/${snooze}/run`, { conversation_id: chat.id })
      .expect(200);
    const snoozed = await detail(chat.id);
    expect(snoozed.assigned_agent_id).toBe(agent.id);
    const until = new Date(snoozed.snoozed_until as string).getTime();
    expect(until).toBeGreaterThanOrEqual(started + 3_600_000 - 1_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1_000);

    const reopen = await createMacro('Reopen', [{ type: 'set_status', status: 'open' }]);
    await as(org.token).post(`/api/agent/conversations/${chat.id}/close`, {}).expect(200);
    await as(agent.token)
      .post(`/api/agent/macros/${reopen}/run`, { conversation_id: chat.id })
      .expect(200);
    const reopened = await detail(chat.id);
    expect(reopened.status).toBe('active');
    expect(reopened.snoozed_until).toBeNull();
  });

  it('runs only the organization’s macros on its own conversations', async () => {
    const id = await createMacro('Just close', [{ type: 'close' }]);
    const mine = await startWidgetChat(app.url, org.site, ['Hi']);
    const theirs = await startWidgetChat(app.url, other.site, ['Hi']);
    await as(other.token)
      .post(`/api/agent/macros/${id}/run`, { conversation_id: theirs.id })
      .expect(404);
    await as(org.token)
      .post(`/api/agent/macros/${id}/run`, { conversation_id: theirs.id })
      .expect(404);
    await as(org.token).post(`/api/agent/macros/${id}/run`, { conversation_id: 'x' }).expect(422);
    await as(org.token)
      .post('/api/agent/macros/999999/run', { conversation_id: mine.id })
      .expect(404);
    expect((await detail(mine.id)).status).not.toBe('closed');
  });
});
