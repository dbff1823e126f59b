import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type SmtpCapture, startSmtp, mailSays } from '../utils/smtp';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const INBOUND_TOKEN = 'inbound-token-browser-0123456789';

/**
 * Settings → Email as an owner uses it: a support address added, its forwarding address shown
 * and working (a mail posted to it opens a ticket), a test mail sent and seen in the log, at
 * desktop and phone widths, axe clean.
 */
describeIfBrowser('dashboard email settings', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let smtp: SmtpCapture;
  let service: string;
  let owner: Registered;
  let page: Page;
  const step = screenshotOnFailure('dashboard-email', () => page);

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      env: {
        SMTP_URL: smtp.url,
        MAIL_REPLY_DOMAIN: 'reply.acme.example',
        INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
        MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG: '1',
      },
      loggedIn: true,
      viewport: null,
    }));
    page = await browser.newPage();
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  step(
    'adds a support address whose forwarding address opens tickets, and sends a test mail',
    async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${service}/settings/email`);
      await page.getByRole('heading', { name: 'Email', level: 2 }).waitFor();
      await page.getByText('No support addresses yet.').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);

      // A refused address is named under its field, in the API's words.
      const form = page.getByRole('form', { name: 'Add a support address' });
      await form.getByRole('textbox', { name: 'Name' }).fill('Support');
      await form.getByRole('textbox', { name: 'Support address' }).fill('support@acme.example');
      await form.getByRole('button', { name: 'Add address' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'support@acme.example was added.' })
        .waitFor();
      const row = page.getByRole('row').filter({ hasText: 'support@acme.example' });
      const forwarding = ((await row.locator('pre, code').first().textContent()) ?? '').trim();
      expect(forwarding).toMatch(/^inbox-[a-z0-9]+@reply\.acme\.example$/);
      await row
        .getByRole('button', { name: 'Copy Forwarding address of support@acme.example' })
        .waitFor();
      await row.getByText('On', { exact: true }).waitFor();

      // The forwarding address shown really opens a ticket.
      const raw = [
        'From: Ada <ada@example.test>',
        `To: ${forwarding}`,
        'Subject: Where is my order?',
        'Message-ID: <order-1@example.test>',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'It has not arrived yet.',
        '',
      ].join('\r\n');
      await request(app.url)
        .post('/api/inbound/email')
        .set({ Authorization: `Bearer ${INBOUND_TOKEN}`, 'Content-Type': 'message/rfc822' })
        .send(raw)
        .expect(200);
      await eventually(async () => {
        const tickets = await request(app.url)
          .get('/api/agent/tickets')
          .set('Authorization', `Bearer ${owner.token}`)
          .expect(200);
        const subjects = (tickets.body.data as { subject: string }[]).map((t) => t.subject);
        return subjects.includes('Where is my order?');
      });

      // Turning the acknowledgement off in the edit dialog sticks.
      await row.getByRole('button', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit support@acme.example' });
      await dialog.getByRole('switch', { name: 'Send an acknowledgement' }).uncheck();
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.getByText('Off', { exact: true }).waitFor();

      // The test mail: queued, then sent to the real SMTP server and shown as sent.
      await page.getByRole('button', { name: 'Send me a test mail' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `A test mail to ${owner.user.email}` })
        .waitFor();
      await smtp.next(owner.user.email, (mail) => mailSays(mail, 'Test mail from'));
      const log = page.getByRole('region', { name: 'Mail log' });
      await eventually(async () => {
        await log.getByRole('button', { name: 'Refresh' }).click();
        const testRow = log.getByRole('row').filter({ hasText: 'Test mail' });
        return (await testRow.getByText('Sent', { exact: true }).count()) === 1;
      });
      // The acknowledgement of the ticket above went out before it was switched off.
      await log.getByRole('row').filter({ hasText: 'Ticket received' }).waitFor();

      // Answers to two people who never got mail from this team, with a budget of one new
      // address an hour: Ada's goes, Bob's waits, and the log says until when and why.
      await request(app.url)
        .post('/api/inbound/email')
        .set({ Authorization: `Bearer ${INBOUND_TOKEN}`, 'Content-Type': 'message/rfc822' })
        .send(
          raw
            .replace('Ada <ada@', 'Bob <bob@')
            .replace('order-1@', 'order-2@')
            .replace('Where is my order?', 'Where is my refund?'),
        )
        .expect(200);
      const tickets = await request(app.url)
        .get('/api/agent/tickets')
        .set('Authorization', `Bearer ${owner.token}`)
        .expect(200);
      for (const email of ['ada@example.test', 'bob@example.test']) {
        const ticket = (tickets.body.data as { id: number; customer_email: string }[]).find(
          (t) => t.customer_email === email,
        )!;
        await request(app.url)
          .post(`/api/agent/tickets/${ticket.id}/comments`)
          .set('Authorization', `Bearer ${owner.token}`)
          .send({ body: 'We are on it.' })
          .expect(201);
      }
      await smtp.next('ada@example.test', (mail) => mailSays(mail, 'We are on it.'));
      const waiting = log.getByRole('row').filter({ hasText: 'bob@example.test' });
      await eventually(async () => {
        await log.getByRole('button', { name: 'Refresh' }).click();
        return (await waiting.getByText('Waiting', { exact: true }).count()) === 1;
      });
      await waiting.getByText(/^Waits until .+ hourly number of new addresses/).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: 'docs/dashboard-email-settings.png', fullPage: true });

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('heading', { name: 'Mail log' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/dashboard-email-390.png', fullPage: true });
    },
  );
});
