import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { startWidgetChat } from '../factories/widget-chat';

/** Automatic assignment: round robin to online agents, within the organization's capacity. */
describe('agent API: automatic assignment', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  let ada: { id: number; token: string };
  let ben: { id: number; token: string };
  let cai: { id: number; token: string };

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  const presence = (token: string, status: 'online' | 'away' | 'offline') =>
    request(app.url).patch('/api/agent/presence').set(auth(token)).send({ status }).expect(200);

  const startChat = async (site: Registered['site'], body = 'Hello') =>
    (await startWidgetChat(app.url, site, [body])).id;

  /** conversation id -> assignee, for the given chats. */
  const assignees = async (ids: number[]) => {
    const { rows } = await db.query<{ id: string; assigned_agent_id: string | null }>(
      'SELECT id, assigned_agent_id FROM conversations WHERE id = ANY($1::bigint[])',
      [ids],
    );
    return new Map(
      rows.map((row) => [
        Number(row.id),
        row.assigned_agent_id === null ? null : Number(row.assigned_agent_id),
      ]),
    );
  };

  /** Waits until the outbox has handled every event (the assignment runs from it). */
  const settled = () =>
    eventually(async () => {
      const { rows } = await db.query<{ pending: string }>(
        'SELECT count(*) AS pending FROM outbox_events WHERE processed_at IS NULL',
      );
      return rows[0].pending === '0';
    }, 20_000);

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    ada = await addMember(app.url, org.token, 'agent');
    ben = await addMember(app.url, org.token, 'agent');
    cai = await addMember(app.url, org.token, 'agent');
  });

  afterAll(() => suite?.stop());

  it('is off by default: new chats stay unassigned', async () => {
    await presence(ada.token, 'online');
    const id = await startChat(org.site);
    await settled();
    expect((await assignees([id])).get(id)).toBeNull();
    await request(app.url)
      .post(`/api/agent/conversations/${id}/close`)
      .set(auth(org.token))
      .expect(200);
  });

  it('assigns concurrent new chats round robin, never over capacity, and queues the rest', async () => {
    await request(app.url)
      .patch('/api/agent/organization')
      .set(auth(org.token))
      .send({ auto_assignment: { enabled: true, capacity: 2 } })
      .expect(200);
    await presence(ada.token, 'online');
    await presence(ben.token, 'online');
    await presence(cai.token, 'away');

    // Five chats start at once; two agents with room for two each.
    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => startChat(org.site, `Chat ${n}`)));
    await settled();
    let assigned = await assignees(ids);
    const perAgent = (agentId: number) =>
      [...assigned.values()].filter((value) => value === agentId).length;
    expect(perAgent(ada.id)).toBe(2);
    expect(perAgent(ben.id)).toBe(2);
    expect(perAgent(cai.id)).toBe(0);
    const queued = ids.filter((id) => assigned.get(id) === null);
    expect(queued).toHaveLength(1);

    // The assigned chats are still waiting for their first answer, and show in Mine.
    const mine = await request(app.url)
      .get('/api/agent/conversations?assigned_agent_id=me&status=waiting')
      .set(auth(ada.token))
      .expect(200);
    expect(mine.body.total).toBe(2);
    // An internal event records each automatic assignment (no webhook event exists for it).
    const events = (await outboxEvents(db, 'conversation.assigned')).filter(
      (event) => event.auto === true,
    );
    expect(events).toHaveLength(4);

    // Capacity frees up: closing one of Ada's chats gives her the queued one.
    const adaChat = ids.find((id) => assigned.get(id) === ada.id) as number;
    await request(app.url)
      .post(`/api/agent/conversations/${adaChat}/close`)
      .set(auth(ada.token))
      .expect(200);
    await settled();
    assigned = await assignees(queued);
    expect(assigned.get(queued[0])).toBe(ada.id);

    // Everyone is full: a new chat waits until an agent comes online.
    const late = await startChat(org.site, 'Late');
    await settled();
    expect((await assignees([late])).get(late)).toBeNull();
    await presence(cai.token, 'online');
    await settled();
    expect((await assignees([late])).get(late)).toBe(cai.id);

    // Another organization's chats are never given to these agents.
    const foreign = await startChat(other.site, 'Elsewhere');
    await settled();
    expect((await assignees([foreign])).get(foreign)).toBeNull();
  });
});
