import os from 'node:os';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
  transitionsSettled,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();

/** What the page's init script records: notifications shown and chime tones started. */
interface Recorded {
  notifications: { title: string; body: string }[];
  chimes: number;
}

/** Records `new Notification(...)` and every chime tone; the tab counts as hidden. */
const RECORD = `
  window.__recorded = { notifications: [], chimes: 0 };
  Object.defineProperty(Document.prototype, 'hidden', { get: () => true });
  const Real = window.Notification;
  const Recording = function (title, options) {
    window.__recorded.notifications.push({ title, body: (options && options.body) || '' });
    return new Real(title, options);
  };
  Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
  Recording.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recording;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__recorded.chimes += 1;
    return start.apply(this, args);
  };
`;

/**
 * The ticket list live and a customer's history (issue 26): a ticket someone else files, or one
 * handed to the agent, appears without a reload, marked, with a chime and the tab title's count
 * until opened; a ticket lists its customer's other tickets and chats, and the visitor panel the
 * tickets filed under the visitor's address.
 */
describeIfBrowser('the dashboard: tickets live and the customer’s history', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  const step = screenshotOnFailure('dashboard-tickets-live', () => page);
  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });
  const recorded = () =>
    page!.evaluate(() => (globalThis as unknown as { __recorded: Recorded }).__recorded);

  beforeAll(async () => {
    suite = await startDashboardSuite({ organization: 'Acme Tickets' });
    ({ app, browser, service, owner } = suite);
    await browser.context.grantPermissions(['notifications'], { origin: service });
    const created = await request(app.url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;
  });

  afterAll(() => suite?.stop());

  const logIn = async (who: { email: string; password: string; name: string }, to: string) => {
    await page?.close();
    await browser.context.clearCookies();
    page = await browser.newPage();
    await page.addInitScript({ content: RECORD });
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: `Account menu for ${who.name}` }).waitFor();
    await page.goto(`${service}${to}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    return page;
  };
  const fileTicket = async (body: object) =>
    (
      await request(app.url)
        .post('/api/agent/tickets')
        .set(asOwner())
        .send({ description: 'Details inside.', ...body })
        .expect(201)
    ).body.data as { id: number; ticket_number: string };
  async function pictures(on: Page, name: string) {
    for (const width of [1440, 390]) {
      await on.setViewportSize({ width, height: 900 });
      await transitionsSettled(on); // the navigation slides away at a phone's width
      await on.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    await on.setViewportSize({ width: 1440, height: 900 });
  }

  step(
    'new and handed-over tickets appear without a reload, with a chime and a count',
    async () => {
      const earlier = await fileTicket({ subject: 'Invoice address wrong' });
      const p = await logIn(agent, '/tickets');
      const table = p.getByRole('table', { name: 'Tickets' });
      await table.getByRole('link', { name: 'Invoice address wrong' }).waitFor();
      // A click unlocks the sound (browsers start audio only after a gesture).
      await p.getByRole('heading', { name: 'Tickets' }).click();
      const before = await recorded();

      const filed = await fileTicket({ subject: 'Order 1001 never arrived' });
      const row = table.getByRole('row', { name: /Order 1001 never arrived/ });
      await row.waitFor();
      await row.getByText('New activity').waitFor();
      await eventually(async () => (await p.title()).startsWith('(1) '));
      const after = await eventually(async () => {
        const now = await recorded();
        return now.notifications.length > before.notifications.length && now;
      });
      expect(after.chimes).toBeGreaterThan(before.chimes);
      expect(after.notifications.at(-1)).toEqual({
        title: `New ticket ${filed.ticket_number}`,
        body: 'Order 1001 never arrived',
      });

      // The owner hands the earlier ticket to the agent: it changes in place and counts too.
      await request(app.url)
        .patch(`/api/agent/tickets/${earlier.id}`)
        .set(asOwner())
        .send({ assigned_agent_id: agent.id })
        .expect(200);
      const handed = table.getByRole('row', { name: /Invoice address wrong/ });
      await handed.getByText('Ada Agent').waitFor();
      await handed.getByText('New activity').waitFor();
      await eventually(async () => (await p.title()).startsWith('(2) '));
      expect(await seriousAxeViolations(p)).toEqual([]);
      await pictures(p, 'tickets-live-agent');

      // Opened: no longer counted.
      await table.getByRole('link', { name: 'Order 1001 never arrived' }).click();
      await p.getByRole('heading', { name: 'Order 1001 never arrived' }).waitFor();
      await eventually(async () => (await p.title()).startsWith('(1) '));
    },
  );

  step(
    'a ticket lists its customer’s other tickets and chats; the panel their tickets',
    async () => {
      const session = (
        await request(app.url)
          .post('/api/widget/init')
          .send({
            widget_key: owner.site.widget_key,
            visitor_name: 'Carol Customer',
            visitor_email: 'carol@example.com',
          })
          .expect(200)
      ).body as { session_token: string; conversation_id: number; visitor_id: number };
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body: 'My parcel is lost.' })
        .expect(201);
      const byMail = await fileTicket({
        subject: 'Parcel lost (by mail)',
        customer_email: 'Carol@Example.com',
      });
      const byVisitor = await fileTicket({
        subject: 'Refund for the parcel',
        visitor_id: session.visitor_id,
      });

      const p = await logIn(
        { email: owner.user.email, password: owner.password, name: owner.user.name },
        `/tickets/${byMail.id}`,
      );
      const customer = p.getByRole('region', { name: 'This customer' });
      await customer
        .getByRole('link', { name: `${byVisitor.ticket_number}: Refund for the parcel` })
        .waitFor();
      const chatLink = customer.getByRole('link', {
        name: new RegExp(`^Chat #${session.conversation_id},`),
      });
      await chatLink.waitFor();
      expect(await seriousAxeViolations(p)).toEqual([]);
      await pictures(p, 'ticket-customer-owner');

      // The chat's visitor panel lists both tickets.
      await chatLink.click();
      await p.getByRole('heading', { name: 'Carol Customer' }).first().waitFor();
      await p
        .getByRole('link', { name: `${byMail.ticket_number}: Parcel lost (by mail)` })
        .waitFor();
      await p
        .getByRole('link', { name: `${byVisitor.ticket_number}: Refund for the parcel` })
        .waitFor();
      await pictures(p, 'visitor-panel-tickets-owner');
    },
  );

  step('the agent sees the same customer history', async () => {
    const tickets = (await request(app.url).get('/api/agent/tickets').set(asOwner()).expect(200))
      .body.data as { id: number; subject: string }[];
    const byMail = tickets.find((ticket) => ticket.subject === 'Parcel lost (by mail)')!;
    const p = await logIn(agent, `/tickets/${byMail.id}`);
    const customer = p.getByRole('region', { name: 'This customer' });
    await customer.getByRole('link', { name: /Refund for the parcel/ }).waitFor();
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'ticket-customer-agent');
  });

  step('the list goes page by page, and a filter starts again at the first page', async () => {
    const { total } = (await request(app.url).get('/api/agent/tickets').set(asOwner()).expect(200))
      .body as { total: number };
    // 53 in all: a full page of 50 and three more.
    for (let made = total; made < 53; made += 10)
      await Promise.all(
        Array.from({ length: Math.min(10, 53 - made) }, (_, i) =>
          fileTicket({ subject: `Batch ticket ${made + i + 1}`, priority: 'low' }),
        ),
      );
    const p = await logIn(
      { email: owner.user.email, password: owner.password, name: owner.user.name },
      '/tickets',
    );
    const table = p.getByRole('table', { name: 'Tickets' });
    const pages = p.getByRole('navigation', { name: 'Pages of Tickets' });
    await p.getByText('1–50 of 53').waitFor();
    expect(await table.getByRole('row').count()).toBe(51); // the header and 50 tickets

    await pages.getByRole('button', { name: 'Next page' }).click();
    await p.getByText('51–53 of 53').waitFor();
    expect(new URL(p.url()).searchParams.get('page')).toBe('2');
    await eventually(async () => (await table.getByRole('row').count()) === 4);
    expect(await pages.getByRole('button', { name: '2' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'tickets-page-2-owner');

    // The address keeps the page: a reload shows the same rows.
    await p.reload();
    await p.getByText('51–53 of 53').waitFor();

    // A filter starts again at the first page (the earlier tests' tickets are not low).
    await p.getByLabel('Priority').selectOption('low');
    await p.getByText(`1–${53 - total} of ${53 - total}`).waitFor();
    expect(new URL(p.url()).searchParams.get('page')).toBeNull();
    expect(await pages.count()).toBe(0);
  });
});
