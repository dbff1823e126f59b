import { simpleParser } from 'mailparser';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import { type AppProcess } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const INBOUND_TOKEN = 'inbound-token-0123456789abcdef';
const DOMAIN = 'reply.acme.example';

/**
 * The email parts of the dashboard (issue 27): an agent's notification mails are switched in
 * Settings → Notifications (a switch per kind, saved as it is flipped), and a visitor's message
 * that came by mail from another address than ours went to carries an "Other sender" badge.
 */
describeIfBrowser('the dashboard: notification mails and other senders', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let smtp: SmtpCapture;
  let browser: TestBrowser;
  let service: string;
  let page: Page;
  let owner: Registered;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  const asAgent = { Authorization: '' };
  const noSeriousViolations = async () =>
    expect(JSON.stringify(await seriousAxeViolations(page), null, 1)).toBe('[]');
  const shoot = screenshotOnFailure('dashboard-email', () => page);
  const step = (name: string, body: () => Promise<void>) =>
    shoot(name, async () => {
      await page?.close();
      page = await browser.newPage();
      await body();
    });

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      env: {
        SMTP_URL: smtp.url,
        MAIL_REPLY_DOMAIN: DOMAIN,
        INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
        CONVERSATION_EMAIL_DELAY_SECONDS: '1',
      },
    }));
    const created = await request(app.url)
      .post('/api/agent/team')
      .set({ Authorization: `Bearer ${owner.token}` })
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;
    const login = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: agent.email, password: agent.password })
      .expect(200);
    asAgent.Authorization = `Bearer ${login.body.token as string}`;

    await suite.logIn(agent);
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  step('lets an agent switch each kind of notification mail', async () => {
    await page.goto(`${service}/settings/notifications`);
    await page.getByRole('heading', { name: 'Notification mails', level: 2 }).waitFor();
    const names = [
      'New conversations',
      'Conversations assigned to me',
      'Answers in my conversations',
      'Missed chats',
      'Tickets assigned to me',
      'Answers on my tickets',
    ];
    for (const name of names) {
      expect(await page.getByRole('switch', { name }).isChecked()).toBe(true);
    }
    await page.getByRole('switch', { name: 'Missed chats' }).click();
    await page.getByRole('status').getByText('Your notification mails were saved.').waitFor();
    const saved = await request(app.url)
      .get('/api/agent/me/notifications')
      .set(asAgent)
      .expect(200);
    expect(saved.body.data.missed_chat).toBe(false);
    expect(saved.body.data.new_conversation).toBe(true);
    await noSeriousViolations();
    await page.screenshot({ path: path.join(os.tmpdir(), 'dashboard-email-notifications.png') });

    // Kept across a reload, and on a phone the switches are still there to flip.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole('switch', { name: 'Tickets assigned to me' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Missed chats' }).isChecked()).toBe(false);
    await page.screenshot({
      path: path.join(os.tmpdir(), 'dashboard-email-notifications-phone.png'),
    });
  });

  step('marks a message that came by mail from another address', async () => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    const visitor = { Authorization: `Bearer ${session.session_token}` };
    await request(app.url)
      .post('/api/widget/profile')
      .set(visitor)
      .send({ name: 'Vera Visitor', email: 'vera@example.com' })
      .expect(200);
    await request(app.url)
      .post('/api/widget/messages')
      .set(visitor)
      .send({ body: 'Where is my parcel?' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/messages`)
      .set(asAgent)
      .send({ body: 'It left today.' })
      .expect(201);
    const mailed = await simpleParser((await smtp.next('vera@example.com')).raw);
    await request(app.url)
      .post('/api/inbound/email')
      .set({ Authorization: `Bearer ${INBOUND_TOKEN}`, 'Content-Type': 'message/rfc822' })
      .send(
        Buffer.from(
          [
            'From: Someone <someone@else.example>',
            `To: ${mailed.replyTo!.value[0].address}`,
            'Subject: Re: New reply',
            `Message-ID: <other-${Date.now()}@else.example>`,
            'Content-Type: text/plain; charset=utf-8',
            '',
            'Thanks, I am her husband.',
            '',
          ].join('\r\n'),
        ),
      )
      .expect(200);

    await page.goto(`${service}/inbox/${session.conversation_id}`);
    const chat = page.getByRole('region', { name: /Vera Visitor/ });
    await chat.getByText('Thanks, I am her husband.').waitFor();
    // One badge, on the mail from the other address, with the reason as its title.
    const badges = chat.getByTitle(/from another address than the one our mail went to/);
    expect(await badges.count()).toBe(1);
    expect(await badges.textContent()).toBe('Other sender');
    await noSeriousViolations();
    await page.screenshot({ path: path.join(os.tmpdir(), 'dashboard-email-other-sender.png') });
  });
});
