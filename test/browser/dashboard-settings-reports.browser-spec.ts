import path from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { seriousAxeViolations, browserAvailable, type TestBrowser } from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

const MISSED_SECONDS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reports page shows what the reports API counts, filters by agent and exports CSV. */
describeIfBrowser('dashboard reports', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let ada: { id: number; token: string };
  let ben: { id: number; token: string };
  let page: Page;

  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  const startChat = async () => {
    const session = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: owner.site.widget_key })
      .expect(200);
    const sessionToken = session.body.session_token as string;
    await request(app.url)
      .post('/api/widget/messages')
      .set(auth(sessionToken))
      .send({ body: 'Hi' })
      .expect(201);
    return { id: session.body.conversation_id as number, sessionToken };
  };

  const answer = async (chat: { id: number }, agent: { token: string }) => {
    await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/messages`)
      .set(auth(agent.token))
      .send({ body: 'On it' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${chat.id}/close`)
      .set(auth(agent.token))
      .expect(200);
  };

  const review = (chat: { sessionToken: string }, rating: number, comment?: string) =>
    request(app.url)
      .post('/api/widget/reviews')
      .set(auth(chat.sessionToken))
      .send({ rating, comment })
      .expect(201);

  /** The API's own figures for the range the page opens on (the last 30 days). */
  const apiReport = async (report: string, extra = '') => {
    const today = new Date();
    const day = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const from = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29);
    const res = await request(app.url)
      .get(`/api/agent/reports/${report}?from=${day(from)}&to=${day(today)}${extra}`)
      .set(auth(owner.token))
      .expect(200);
    return res.body.data as {
      totals: {
        conversations: number;
        missed: number;
        average: number | null;
        count: number;
      };
      comments: { conversation_id: number }[];
    };
  };

  /** A teammate with a name of their own (the table and the filter show names). */
  const member = async (name: string) => {
    const email = uniqueEmail('agent');
    const password = 'correct horse battery';
    const created = await request(app.url)
      .post('/api/agent/team')
      .set(auth(owner.token))
      .send({ name, email, role: 'agent', password })
      .expect(201);
    const login = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email, password })
      .expect(200);
    return { id: created.body.data.id as number, token: login.body.token as string };
  };

  const stat = (label: string) => page.getByLabel(new RegExp(`^${label}: `));

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      env: { MISSED_CHAT_SECONDS: String(MISSED_SECONDS) },
      viewport: { width: 1360, height: 900 },
    }));
    ada = await member('Ada Agent');
    ben = await member('Ben Agent');

    // Ada answers two chats, Ben one; one chat is missed. Ratings 5, 4 and 2.
    const first = await startChat();
    await sleep(300);
    await answer(first, ada);
    const second = await startChat();
    await sleep(600);
    await answer(second, ada);
    const third = await startChat();
    await answer(third, ben);
    const missed = await startChat();
    await review(first, 5);
    await review(second, 4);
    await review(third, 2, 'I waited a long time for an answer.');
    await eventually(
      async () => {
        const inbox = await request(app.url)
          .get('/api/agent/conversations?status=missed')
          .set(auth(owner.token))
          .expect(200);
        return inbox.body.data.some((row: { id: number }) => row.id === missed.id);
      },
      (MISSED_SECONDS + 20) * 1000,
    );

    await suite.logIn();
    page = await browser.newPage();
  });

  afterAll(() => suite?.stop());

  it('shows the counts the API reports, for everyone and for one agent', async () => {
    const conversations = await apiReport('conversations');
    const csat = await apiReport('csat');
    expect(conversations.totals).toMatchObject({ conversations: 4, missed: 1 });

    await page.goto(`${service}/reports`);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await stat('Conversations').first().waitFor();
    expect(await stat('Conversations').first().getAttribute('aria-label')).toBe(
      `Conversations: ${conversations.totals.conversations}`,
    );
    expect(await stat('Missed').first().getAttribute('aria-label')).toBe(
      `Missed: ${conversations.totals.missed}`,
    );
    expect(await stat('Missed-chat rate').getAttribute('aria-label')).toBe(
      'Missed-chat rate: 25.0%',
    );
    expect(await stat('Average rating').getAttribute('aria-label')).toBe(
      `Average rating: ${csat.totals.average!.toFixed(2)}`,
    );
    expect(await stat('Ratings').getAttribute('aria-label')).toBe(`Ratings: ${csat.totals.count}`);
    // Per agent, by name.
    const perAgent = page.getByRole('table', { name: 'Per agent', exact: true });
    await perAgent.getByRole('row', { name: 'Ada Agent 2 0 0.0%' }).waitFor();
    await perAgent.getByRole('row', { name: 'Ben Agent 1 0 0.0%' }).waitFor();
    // The per-site table is as tall as its rows: no stretched row beside the per-agent table.
    const perSite = page.getByRole('table', { name: 'Per site', exact: true });
    const rowHeights = await perSite
      .getByRole('row')
      .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
    expect(Math.max(...rowHeights)).toBeLessThan(Math.min(...rowHeights) * 1.5);
    // The rating comments, by the agent of the chat, with a link to it.
    const comments = page.getByRole('region', { name: 'What visitors wrote' });
    const comment = comments.getByRole('listitem').filter({
      hasText: 'I waited a long time for an answer.',
    });
    await comment.getByText('2 of 5').waitFor();
    expect(
      await comment.getByRole('link', { name: 'Open the conversation' }).getAttribute('href'),
    ).toBe(`/inbox/${csat.comments[0].conversation_id}`);
    // The charts are drawn.
    await page.getByRole('img', { name: /^Conversations and missed chats per day/ }).waitFor();
    await page.getByRole('img', { name: /How many conversations got each rating/ }).waitFor();

    // Each report exports the same query as CSV.
    const csv = page.getByRole('link', { name: 'Export CSV of Conversations' });
    const href = (await csv.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/agent\/reports\/conversations\.csv\?from=\d{4}-\d\d-\d\d&to=/);
    const download = await page.request.get(`${service}${href}`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toContain('text/csv');

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({
      path: path.join(__dirname, '../../docs/dashboard-reports.png'),
      fullPage: true,
    });

    // One agent: Ada's two chats, as the API counts them.
    const adaOnly = await apiReport('conversations', `&agent_id=${ada.id}`);
    expect(adaOnly.totals.conversations).toBe(2);
    await page.getByRole('combobox', { name: 'Agent' }).click();
    await page.getByRole('option', { name: 'Ada Agent' }).click();
    await eventually(async () => {
      const label = await stat('Conversations').first().getAttribute('aria-label');
      return label === `Conversations: ${adaOnly.totals.conversations}`;
    });
  });
});
