import { DateTime } from 'luxon';
import request from 'supertest';
import {
  addMember,
  createSite,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { startWidgetChat } from '../factories/widget-chat';

const MISSED_SECONDS = 4;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PostgreSQL's percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

interface Chat {
  id: number;
  visitorUid: string;
  sessionToken: string;
  visitorId: number;
  site: Registered['site'];
  startedAt: number;
  firstResponseAt?: number;
  closedAt?: number;
  agentId?: number;
  rating?: number;
}

/** The reports, checked against what the test itself did through the API; and the visitor panel. */
describe('agent API: reports and the visitor panel', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;
  let ada: { id: number; token: string };
  let ben: { id: number; token: string };
  let berlin: Registered['site'];
  const chats: Chat[] = [];

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const today = () => DateTime.now().setZone('Europe/Berlin').toISODate() as string;

  const startChat = async (
    site: Registered['site'],
    extra: Record<string, unknown> = {},
    token = org.token,
  ) => {
    const started = await startWidgetChat(app.url, site, ['Hi'], extra);
    const conversation = await request(app.url)
      .get(`/api/agent/conversations/${started.id}`)
      .set(auth(token))
      .expect(200);
    const chat: Chat = {
      id: started.id,
      visitorUid: started.visitorUid,
      visitorId: started.visitorId,
      sessionToken: started.sessionToken,
      site,
      startedAt: Date.parse(conversation.body.data.started_at as string),
    };
    chats.push(chat);
    return chat;
  };

  const reply = async (chat: Chat, agent: { id: number; token: string }) => {
    const sent = await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/messages`)
      .set(auth(agent.token))
      .send({ body: 'On it' })
      .expect(201);
    chat.firstResponseAt = Date.parse(sent.body.created_at as string);
    chat.agentId = agent.id;
  };

  const close = async (chat: Chat, agent: { token: string }) => {
    const closed = await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/close`)
      .set(auth(agent.token))
      .expect(200);
    chat.closedAt = Date.parse(closed.body.data.closed_at as string);
  };

  const review = async (chat: Chat, rating: number) => {
    await request(app.url)
      .post('/api/widget/reviews')
      .set(auth(chat.sessionToken))
      .send({ rating })
      .expect(201);
    chat.rating = rating;
  };

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({
      PUBLIC_URL: 'https://chat.example.test',
      MISSED_CHAT_SECONDS: String(MISSED_SECONDS),
    }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    ada = await addMember(app.url, org.token, 'agent');
    ben = await addMember(app.url, org.token, 'agent');
    // Reports use the site's zone: the first site (the registered one) is moved to Berlin too.
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set(auth(org.token))
      .send({ timezone: 'Europe/Berlin' })
      .expect(200);
    const site = await createSite(app.url, org.token, {
      name: 'Berlin shop',
      timezone: 'Europe/Berlin',
    });
    berlin = { id: site.id, widget_key: site.widget_key };

    // Ada answers two chats on the first site, Ben one on the Berlin site; one chat is missed.
    const a1 = await startChat(org.site);
    await sleep(200);
    await reply(a1, ada);
    const a2 = await startChat(org.site);
    await sleep(700);
    await reply(a2, ada);
    const b1 = await startChat(berlin);
    await sleep(400);
    await reply(b1, ben);
    const missed = await startChat(berlin);
    await sleep(300);
    await close(a1, ada);
    await sleep(500);
    await close(b1, ben);
    await review(a1, 5);
    await review(b1, 2);
    await review(a2, 4);
    // The unanswered chat becomes missed when its timer runs out.
    await eventually(
      async () => {
        const inbox = await request(app.url)
          .get('/api/agent/conversations?status=missed')
          .set(auth(org.token))
          .expect(200);
        return inbox.body.data.some((row: { id: number }) => row.id === missed.id);
      },
      (MISSED_SECONDS + 20) * 1000,
    );
    // Another organization's chat never counts.
    await startChat(other.site, {}, other.token);
  });

  afterAll(() => suite?.stop());

  const range = () => {
    const to = today();
    const from = DateTime.fromISO(to).minus({ days: 2 }).toISODate() as string;
    return { from, to };
  };

  it('conversations per day and the missed-chat rate, in total, per agent and per site', async () => {
    const { from, to } = range();
    const res = await request(app.url)
      .get(`/api/agent/reports/conversations?from=${from}&to=${to}`)
      .set(auth(ada.token))
      .expect(200);
    const data = res.body.data;
    expect(data).toMatchObject({ timezone: 'Europe/Berlin', from, to });
    expect(data.totals).toEqual({ conversations: 4, missed: 1, missed_rate: 0.25 });
    expect(data.days).toHaveLength(3);
    expect(data.days[2]).toEqual({ date: to, conversations: 4, missed: 1 });
    expect(data.days[0]).toMatchObject({ conversations: 0, missed: 0 });
    expect(data.per_agent).toEqual([
      { id: null, conversations: 1, missed: 1, missed_rate: 1 },
      { id: ada.id, conversations: 2, missed: 0, missed_rate: 0 },
      { id: ben.id, conversations: 1, missed: 0, missed_rate: 0 },
    ]);
    expect(data.per_site).toEqual([
      { id: org.site.id, conversations: 2, missed: 0, missed_rate: 0 },
      { id: berlin.id, conversations: 2, missed: 1, missed_rate: 0.5 },
    ]);

    // One site, one agent.
    const site = await request(app.url)
      .get(`/api/agent/reports/conversations?from=${from}&to=${to}&site_id=${berlin.id}`)
      .set(auth(ada.token))
      .expect(200);
    expect(site.body.data.totals).toEqual({ conversations: 2, missed: 1, missed_rate: 0.5 });
    const agent = await request(app.url)
      .get(`/api/agent/reports/conversations?from=${from}&to=${to}&agent_id=${ada.id}`)
      .set(auth(ada.token))
      .expect(200);
    expect(agent.body.data.totals.conversations).toBe(2);

    // The CSV has the same days.
    const csv = await request(app.url)
      .get(`/api/agent/reports/conversations.csv?from=${from}&to=${to}`)
      .set(auth(ada.token))
      .expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="conversations-${from}-${to}.csv"`,
    );
    expect(csv.text.split('\r\n')).toEqual([
      'date,conversations,missed',
      ...data.days.map(
        (day: { date: string; conversations: number; missed: number }) =>
          `${day.date},${day.conversations},${day.missed}`,
      ),
      '',
    ]);

    // Another organization sees only its own chat.
    const theirs = await request(app.url)
      .get(`/api/agent/reports/conversations?from=${from}&to=${to}`)
      .set(auth(other.token))
      .expect(200);
    expect(theirs.body.data.totals.conversations).toBe(1);
  });

  it('first response and resolution times: median and p90 of what happened', async () => {
    const { from, to } = range();
    const res = await request(app.url)
      .get(`/api/agent/reports/response-times?from=${from}&to=${to}`)
      .set(auth(org.token))
      .expect(200);
    const ours = chats.filter((chat) => chat.site.id !== other.site.id);
    const first = ours
      .filter((chat) => chat.firstResponseAt !== undefined)
      .map((chat) => ((chat.firstResponseAt as number) - chat.startedAt) / 1000);
    const resolution = ours
      .filter((chat) => chat.closedAt !== undefined)
      .map((chat) => ((chat.closedAt as number) - chat.startedAt) / 1000);
    const totals = res.body.data.totals;
    expect(totals.first_response.count).toBe(3);
    expect(totals.first_response.median_seconds).toBeCloseTo(percentile(first, 0.5) as number, 1);
    expect(totals.first_response.p90_seconds).toBeCloseTo(percentile(first, 0.9) as number, 1);
    expect(totals.resolution.count).toBe(2);
    expect(totals.resolution.median_seconds).toBeCloseTo(percentile(resolution, 0.5) as number, 1);
    const adaRow = res.body.data.per_agent.find((row: { id: number }) => row.id === ada.id);
    const adaFirst = ours
      .filter((chat) => chat.agentId === ada.id)
      .map((chat) => ((chat.firstResponseAt as number) - chat.startedAt) / 1000);
    expect(adaRow.first_response.count).toBe(2);
    expect(adaRow.first_response.median_seconds).toBeCloseTo(
      percentile(adaFirst, 0.5) as number,
      1,
    );
    const unassigned = res.body.data.per_agent.find(
      (row: { id: number | null }) => row.id === null,
    );
    expect(unassigned.first_response).toEqual({
      count: 0,
      median_seconds: null,
      p90_seconds: null,
    });

    const csv = await request(app.url)
      .get(`/api/agent/reports/response-times.csv?from=${from}&to=${to}`)
      .set(auth(org.token))
      .expect(200);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toMatch(/^scope,id,conversations,missed,missed_rate,first_response_count/);
    expect(lines[1]).toMatch(/^all,,4,1,0\.25,3,/);
    expect(lines).toHaveLength(1 + 1 + 3 + 2);
  });

  it('CSAT: average and distribution of the ratings visitors gave', async () => {
    const { from, to } = range();
    const res = await request(app.url)
      .get(`/api/agent/reports/csat?from=${from}&to=${to}`)
      .set(auth(org.token))
      .expect(200);
    expect(res.body.data.totals).toEqual({
      count: 3,
      average: 3.67,
      distribution: { '1': 0, '2': 1, '3': 0, '4': 1, '5': 1 },
    });
    const perSite = res.body.data.per_site as { id: number; average: number }[];
    expect(perSite).toEqual([
      expect.objectContaining({ id: org.site.id, count: 2, average: 4.5 }),
      expect.objectContaining({ id: berlin.id, count: 1, average: 2 }),
    ]);
    const csv = await request(app.url)
      .get(`/api/agent/reports/csat.csv?from=${from}&to=${to}`)
      .set(auth(org.token))
      .expect(200);
    expect(csv.text.split('\r\n')[1]).toBe('all,,3,3.67,0,1,0,1,1');
  });

  it('refuses a bad range or another organization’s site', async () => {
    const { from, to } = range();
    const checks: [string, string][] = [
      [`from=${to}&to=${from}`, 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=2020-01-01&to=2026-01-01', 'to'],
      [`to=${to}`, 'from'],
      [`from=${from}&to=${to}&site_id=${other.site.id}`, 'site_id'],
      [`from=${from}&to=${to}&agent_id=x`, 'agent_id'],
    ];
    for (const [query, field] of checks) {
      const res = await request(app.url)
        .get(`/api/agent/reports/conversations?${query}`)
        .set(auth(org.token))
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    await request(app.url).get(`/api/agent/reports/csat?from=${from}&to=${to}`).expect(401);
  });

  it('the visitor panel: profile, page, earlier conversations, tickets and appointments', async () => {
    const chat = await startChat(org.site, {
      visitor_name: 'Vera',
      visitor_email: 'vera@example.com',
      url: 'https://shop.example.com/cart',
      page_title: 'Your cart',
    });
    await close(chat, ada);
    const ticket = await request(app.url)
      .post('/api/agent/tickets')
      .set(auth(org.token))
      .send({ subject: 'Refund', description: 'Card refund', visitor_id: chat.visitorId })
      .expect(201);
    // Book the first free slot of the coming week.
    let booked: { id: number } | undefined;
    for (let day = 1; day <= 7 && !booked; day += 1) {
      const date = DateTime.now().setZone('UTC').plus({ days: day }).toISODate() as string;
      const availability = await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: org.site.widget_key, date })
        .expect(200);
      const slot = (availability.body.slots as { starts_at: string; available: boolean }[]).find(
        (candidate) => candidate.available,
      );
      if (!slot) continue;
      const res = await request(app.url)
        .post('/api/widget/appointments/book')
        .send({
          widget_key: org.site.widget_key,
          visitor_uid: chat.visitorUid,
          scheduled_at: slot.starts_at,
          visitor_name: 'Vera',
        })
        .expect(201);
      booked = res.body.appointment as { id: number };
    }

    const panel = await request(app.url)
      .get(`/api/agent/visitors/${chat.visitorId}`)
      .set(auth(ben.token))
      .expect(200);
    expect(panel.body.data).toMatchObject({
      id: chat.visitorId,
      site_id: org.site.id,
      name: 'Vera',
      email: 'vera@example.com',
      current_page: { url: 'https://shop.example.com/cart', title: 'Your cart' },
      custom_fields: {},
      account_login: { logged_in: false, identifier: null, verified_at: null },
      conversations: [{ id: chat.id, status: 'closed' }],
      tickets: [{ id: ticket.body.data.id, subject: 'Refund', status: 'open' }],
    });
    expect(booked).toBeDefined();
    expect(panel.body.data.appointments).toEqual([
      expect.objectContaining({ id: booked?.id, status: 'confirmed' }),
    ]);

    await request(app.url)
      .get(`/api/agent/visitors/${chat.visitorId}`)
      .set(auth(other.token))
      .expect(404);
    await request(app.url).get('/api/agent/visitors/abc').set(auth(org.token)).expect(404);
  });
});
