import { randomBytes } from 'node:crypto';
import { createPostgresBackend, Queue, setDefaultBackendFactory } from 'bullmq';
import type { Page } from 'playwright-core';
import request from 'supertest';
import {
  addMember,
  registerOrganization,
  type Registered,
  uniqueEmail,
} from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  launchBrowser,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { linkIn, type SmtpCapture, startSmtp, subjectIs } from '../utils/smtp';
import { startReceiver } from '../utils/webhook-receiver';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

/**
 * The dashboard's Admin area as a platform administrator uses it (DESIGN section 13): find and
 * suspend an organization (whose members then see why, and whose widget answers 402), resume it,
 * retry and remove a failed job, read the failing webhook endpoints and mails, see the running
 * instance. A member sees no Admin entry.
 */
describeIfBrowser('dashboard: platform administration', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let page: Page;
  let customer: Registered;
  let smtp: SmtpCapture;
  const adminEmail = uniqueEmail('ops');

  const login = async (target: Page, email: string, password: string) => {
    const res = await target.request.post(`${service}/api/agent/auth/login`, {
      data: { email, password },
    });
    expect(res.status()).toBe(200);
  };

  beforeAll(async () => {
    // A test mail is refused for good (550): the mail given up on.
    smtp = await startSmtp(0, subjectIs(/^Test mail from/));
    // The platform's administrator registers an organization of its own, by its address.
    ({ app, service, browser } = suite = await startDashboardSuite({
      env: { PLATFORM_ADMIN_EMAILS: adminEmail, SMTP_URL: smtp.url },
      organization: false,
      viewport: null,
    }));
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await request(app.url)
      .post('/api/agent/auth/register')
      .send({ organization_name: 'Operators', name: 'Olga Ops', email: adminEmail, password })
      .expect(201);
    customer = await registerOrganization(app.url, 'Customer Co');
    page = await browser.newPage();
    await login(page, adminEmail, password);
    // A listed address counts once its person confirmed it: the mailed link, opened.
    const link = await linkIn(
      await smtp.next(adminEmail, subjectIs(/Confirm your address/)),
      '/verify-email',
    );
    await page.goto(link.toString());
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.getByRole('status').filter({ hasText: 'Your address is confirmed.' }).waitFor();
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('finds an organization, suspends it with a reason its members read, and resumes it', async () => {
    await page.goto(`${service}/inbox`);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Admin' })
      .click();
    await page.getByRole('heading', { name: 'Platform administration', level: 1 }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('searchbox', { name: 'Search organizations' }).fill('customer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 organizations' }).waitFor();
    const table = page.getByRole('table', { name: 'Organizations' });
    const row = table.getByRole('row').filter({ hasText: 'Customer Co' });
    await row.getByText('Active').waitFor();
    await row.getByText(/Members: 1 · Sites: 1 · Chats this month: 0 · Storage:/).waitFor();

    await row.getByRole('button', { name: 'Manage Customer Co' }).click();
    const manage = page.getByRole('region', { name: 'Manage Customer Co' });
    const reason = 'Payment overdue. Contact billing@example.com.';
    await manage.getByRole('textbox', { name: 'Reason, shown to its members' }).fill(reason);
    await manage.getByRole('button', { name: 'Suspend organization' }).click();
    await row.getByText('Suspended').waitFor();
    await manage.getByText(`: ${reason}`).waitFor();
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: customer.site.widget_key })
      .expect(402);

    // A member of the suspended organization reads why, and has no Admin entry.
    const member = await addMember(app.url, customer.token, 'agent');
    const second = await launchBrowser();
    try {
      const memberPage = await second.newPage();
      await login(memberPage, member.email, member.password);
      await memberPage.goto(`${service}/inbox`);
      await memberPage
        .getByRole('alert')
        .filter({ hasText: `This organization is suspended: ${reason}` })
        .waitFor();
      expect(
        await memberPage
          .getByRole('navigation', { name: 'Main navigation' })
          .getByRole('link', { name: 'Admin' })
          .count(),
      ).toBe(0);
    } finally {
      await second.close();
    }

    await manage.getByRole('button', { name: 'Resume organization' }).click();
    await row.getByText('Active').waitFor();
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: customer.site.widget_key })
      .expect(200);
  });

  it("changes an organization's plan", async () => {
    await page.goto(`${service}/admin?tab=organizations`);
    const row = page
      .getByRole('table', { name: 'Organizations' })
      .getByRole('row')
      .filter({ hasText: 'Customer Co' });
    await row.getByRole('button', { name: 'Manage Customer Co' }).click();
    const manage = page.getByRole('region', { name: 'Manage Customer Co' });
    await manage.getByRole('combobox', { name: 'Plan' }).click();
    await page.getByRole('option', { name: 'free', exact: true }).click();
    await manage.getByRole('button', { name: 'Save plan and subscription' }).click();
    await manage.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await row.getByRole('cell', { name: 'free', exact: true }).waitFor();
  });

  it('shows queue health, and retries and removes a failed job', async () => {
    setDefaultBackendFactory(createPostgresBackend);
    const queue = new Queue('missed-chats', {
      connection: { connectionString: suite.databaseUrl },
    });
    let id: string;
    try {
      const job = await queue.add('broken', { organizationId: 'x', conversationId: 'y' });
      id = String(job.id);
      await eventually(async () => (await job.getState()) === 'failed');
    } finally {
      await queue.close();
    }

    await page.goto(`${service}/admin`);
    await page.getByRole('tab', { name: 'Queues' }).click();
    const queues = page.getByRole('table', { name: 'Queues' });
    await queues.getByRole('rowheader', { name: 'missed-chats' }).waitFor();
    const failed = page.getByRole('region', { name: 'Failed jobs of missed-chats' });
    await failed.getByRole('button', { name: `Retry job ${id}` }).click();
    await page.getByRole('status').filter({ hasText: 'Done.' }).waitFor();
    // It fails again (its data is still broken); then it is removed.
    await failed.getByRole('button', { name: `Remove job ${id}` }).click();
    await failed.waitFor({ state: 'detached' });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('lists failing webhook endpoints and mails given up on', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    try {
      await request(app.url)
        .post('/api/agent/webhooks')
        .set('Authorization', `Bearer ${customer.token}`)
        .send({ url: `${receiver.url}/hooks`, events: ['message.received'] })
        .expect(201);
      const session = await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: customer.site.widget_key })
        .expect(200);
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.body.session_token as string}`)
        .send({ body: 'Hello?' })
        .expect(201);
      // The capture refuses the test mail for good: it fails at once.
      await request(app.url)
        .post('/api/agent/mail-log/test')
        .set('Authorization', `Bearer ${customer.token}`)
        .send({})
        .expect(201);
      await eventually(async () => receiver.received.length > 0);
      // The test mail given up on, as the server records it, before the console is loaded: on a
      // slow machine the SMTP answer can come after the page's last load.
      await eventually(async () => {
        const log = await request(app.url)
          .get('/api/agent/mail-log')
          .set('Authorization', `Bearer ${customer.token}`)
          .expect(200);
        return (log.body.data as { kind: string; status: string }[]).some(
          (mail) => mail.kind === 'test' && mail.status === 'failed',
        );
      }, 30_000);

      await page.goto(`${service}/admin?tab=failures`);
      const hooks = page.getByRole('table', { name: 'Failing webhook endpoints' });
      const row = hooks.getByRole('row').filter({ hasText: `${receiver.url}/hooks` });
      // The console refreshes on its own; a reload is what an operator would do sooner.
      await eventually(async () => {
        if ((await row.getByText('HTTP 503').count()) > 0) return true;
        await page.reload();
        await hooks.waitFor();
        return false;
      }, 30_000);
      await row.getByRole('cell', { name: 'Customer Co' }).waitFor();
      const mails = page.getByRole('table', { name: 'Mails given up on' });
      // The test mail's row (other mails of the organization are sent).
      const mail = mails
        .getByRole('row')
        .filter({ hasText: 'Customer Co' })
        .filter({ has: page.getByRole('cell', { name: 'test', exact: true }) });
      await mail.getByRole('cell', { name: 'example.test', exact: true }).waitFor();
      await mail.getByText('550 Mailbox unavailable').waitFor();
      // The day's count: at least the test mail.
      const day = page.getByText(/^\d+ in the last 24 hours$/);
      await day.waitFor();
      const failedToday = Number(/^\d+/.exec((await day.textContent()) ?? '')?.[0]);
      expect(failedToday).toBeGreaterThanOrEqual(1);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('lists the running instance', async () => {
    await page.getByRole('tab', { name: 'Instances' }).click();
    const instances = page.getByRole('table', { name: 'Running instances' });
    await instances.getByText('this one').waitFor();
  });
});
