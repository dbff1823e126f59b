import { DateTime } from 'luxon';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

interface AgentRow {
  id: number | null;
  first_response: { count: number };
  resolution: { count: number };
}

/**
 * Per-agent report figures credit what each member did (issue 26): the first reply to its
 * sender, the resolution to whoever closed the chat (the assignee when the visitor ended it),
 * the volume to the assignee — not everything to whoever holds the chat at the end.
 */
describe('reports: per-agent credit after a handover', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let ada: { id: number; token: string };
  let ben: { id: number; token: string };
  let endedId: number;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
    ada = await addMember(app.url, org.token, 'agent');
    ben = await addMember(app.url, org.token, 'agent');

    // Ben answers first, then hands the chat to Ada, who closes it.
    const handedOver = await startWidgetChat(app.url, org.site, ['My parcel is late']);
    await request(app.url)
      .post(`/api/agent/conversations/${handedOver.id}/messages`)
      .set(auth(ben.token))
      .send({ body: 'Let me check' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${handedOver.id}/assign`)
      .set(auth(ben.token))
      .send({ agent_id: ada.id })
      .expect(200);
    await request(app.url)
      .post(`/api/agent/conversations/${handedOver.id}/close`)
      .set(auth(ada.token))
      .expect(200);

    // Ada answers a second chat, which the visitor ends.
    const ended = await startWidgetChat(app.url, org.site, ['Hello?']);
    await request(app.url)
      .post(`/api/agent/conversations/${ended.id}/messages`)
      .set(auth(ada.token))
      .send({ body: 'Hi!' })
      .expect(201);
    await request(app.url).post('/api/widget/end-chat').set(auth(ended.sessionToken)).expect(200);
    await request(app.url)
      .post('/api/widget/reviews')
      .set(auth(ended.sessionToken))
      .send({ rating: 4, comment: 'Quick and friendly.' })
      .expect(201);
    endedId = ended.id;
  });

  afterAll(() => suite?.stop());

  it('credits the first reply to its sender and the resolution to the closer', async () => {
    const to = DateTime.utc().toISODate();
    const from = DateTime.utc().minus({ days: 1 }).toISODate();
    const times = await request(app.url)
      .get(`/api/agent/reports/response-times?from=${from}&to=${to}`)
      .set(auth(org.token))
      .expect(200);
    const row = (id: number) =>
      (times.body.data.per_agent as AgentRow[]).find((candidate) => candidate.id === id);
    expect(times.body.data.totals.first_response.count).toBe(2);
    expect(times.body.data.totals.resolution.count).toBe(2);
    expect(row(ben.id)).toMatchObject({ first_response: { count: 1 }, resolution: { count: 0 } });
    expect(row(ada.id)).toMatchObject({ first_response: { count: 1 }, resolution: { count: 2 } });

    // The volume stays with the assignee: both chats are Ada's now.
    const volume = await request(app.url)
      .get(`/api/agent/reports/conversations?from=${from}&to=${to}`)
      .set(auth(org.token))
      .expect(200);
    expect(volume.body.data.per_agent).toEqual([
      { id: ada.id, conversations: 2, missed: 0, missed_rate: 0 },
      { id: ben.id, conversations: 0, missed: 0, missed_rate: null },
    ]);
  });

  it('lists the comments visitors left with their rating, newest first', async () => {
    const to = DateTime.utc().toISODate();
    const csat = await request(app.url)
      .get(`/api/agent/reports/csat?from=${to}&to=${to}`)
      .set(auth(ada.token))
      .expect(200);
    expect(csat.body.data.comments).toEqual([
      {
        conversation_id: endedId,
        rating: 4,
        comment: 'Quick and friendly.',
        reviewed_at: expect.any(String),
        agent_id: ada.id,
        site_id: org.site.id,
      },
    ]);
  });
});
