import { simpleParser } from 'mailparser';
import type { FrameLocator, Page } from 'playwright-core';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, freePort, startApp } from '../utils/app-process';
import {
  browserAvailable,
  closePage,
  hostPage,
  launchBrowser,
  screenshotOnFailure,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  typeInto,
  watchConsole,
  openChat,
} from '../utils/browser';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { type SmtpCapture, startSmtp } from '../utils/smtp';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const INBOUND_TOKEN = 'inbound-token-for-the-away-test';
const DOMAIN = 'reply.acme.example';

/**
 * The conversation goes on when nobody is watching (DESIGN section 9), the whole round trip: a
 * visitor on a phone writes while nobody is online, leaves an email in the inline prompt and
 * closes the page; an agent answers later in the dashboard; the mail arrives at the SMTP sink;
 * the visitor's emailed reply comes in by the HTTP door and appears live in the agent's page.
 */
describeIfBrowser('the widget with nobody online, and the conversation by email', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let phone: TestBrowser;
  let desk: TestBrowser;
  let service: string;
  let smtp: SmtpCapture;
  let org: Registered;
  let page: Page | undefined;

  const frameOf = (p: Page): FrameLocator => p.frameLocator('iframe[title="Chat"]');
  const widgetFrame = (p: Page) => p.frames().find((f) => f.url().includes('/widget/'))!;
  const step = screenshotOnFailure('widget-away', () => page);

  beforeAll(async () => {
    smtp = await startSmtp();
    databaseUrl = await createTestDatabase();
    const port = await freePort();
    service = `http://127.0.0.1:${port}`;
    app = await startApp({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: service,
      SMTP_URL: smtp.url,
      MAIL_REPLY_DOMAIN: DOMAIN,
      CONVERSATION_EMAIL_DELAY_SECONDS: '2',
      INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
    });
    phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true });
    desk = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    org = await registerOrganization(app.url, 'Acme');
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({
        widget_settings: {
          availability: {
            away_message: 'Our team is away. Write to us and we will answer soon.',
            reply_time: 'hours',
          },
        },
      })
      .expect(200);
  });

  afterAll(async () => {
    await phone?.close();
    await desk?.close();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
    await smtp?.close();
  });

  step(
    'a visitor writes with nobody online, leaves an email, goes; the answer is mailed and the emailed reply is live in the dashboard',
    async () => {
      // The visitor, on a phone, with nobody online: the away notice and still a message box.
      const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
      page = await phone.newPage();
      watchConsole(page);
      await page.goto(site.url);
      await openChat(page);
      const frame = frameOf(page);
      await frame
        .getByText('Our team is away. Write to us and we will answer soon.')
        .waitFor({ timeout: 15_000 });
      await frame.getByText('We usually reply in a few hours.').waitFor();
      await frame.getByText('We are away right now').first().waitFor();
      expect(await frame.getByRole('button', { name: 'Leave a message' }).count()).toBe(0);
      expect(await seriousAxeViolations(widgetFrame(page))).toEqual([]);
      await page.screenshot({ path: 'docs/widget-away-390.png' });

      const box = frame.getByRole('textbox', { name: 'Message' });
      await typeInto(box, 'Do you ship to Norway?');
      await frame.getByRole('button', { name: 'Send' }).click();
      // Asked once, inline, for an address.
      const prompt = frame.getByRole('form', { name: 'Get notified by email' });
      await prompt.waitFor({ timeout: 15_000 });
      expect(await seriousAxeViolations(widgetFrame(page))).toEqual([]);
      await page.screenshot({ path: 'docs/widget-away-email-390.png' });
      await typeInto(prompt.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
      await prompt.getByRole('button', { name: 'Notify me' }).click();
      await frame.getByText('Thanks! We will email you at ada@example.com.').waitFor();
      expect(await prompt.count()).toBe(0);

      const conversations = await request(app.url)
        .get('/api/agent/conversations')
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);
      const conversation = conversations.body.data[0] as {
        id: number;
        status: string;
        visitor: { email: string };
      };
      expect(conversation.status).toBe('waiting');
      // Someone comes online: the widget hears it without a reload.
      await request(app.url)
        .patch('/api/agent/presence')
        .set('Authorization', `Bearer ${org.token}`)
        .send({ status: 'online' })
        .expect(200);
      await frame.getByText('We are online').waitFor();
      expect(
        await frame.getByText('Our team is away. Write to us and we will answer soon.').count(),
      ).toBe(0);
      await request(app.url)
        .patch('/api/agent/presence')
        .set('Authorization', `Bearer ${org.token}`)
        .send({ status: 'offline' })
        .expect(200);
      await frame.getByText('Our team is away. Write to us and we will answer soon.').waitFor();
      await closePage(page);
      page = undefined;
      await site.close();

      // Later, an agent opens the dashboard and answers.
      page = await desk.newPage();
      watchConsole(page);
      await page.goto(`${service}/login`);
      await page.getByLabel('Email', { exact: true }).fill(org.user.email);
      await page.getByLabel('Password', { exact: true }).fill(org.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
      await page.goto(`${service}/inbox/${conversation.id}`);
      const log = page.getByRole('log', { name: 'Messages' });
      await log.getByText('Do you ship to Norway?').waitFor({ timeout: 15_000 });
      await page.getByRole('textbox', { name: 'Reply' }).fill('Yes, to Oslo in three days.');
      await page.getByRole('textbox', { name: 'Reply' }).press('Enter');
      await log.getByText('Yes, to Oslo in three days.').waitFor();

      // The visitor is gone: the reply is mailed, threaded and answerable.
      const raw = (await smtp.next('ada@example.com', undefined, 20_000)).raw;
      const mail = await simpleParser(raw);
      expect(mail.subject).toBe('New reply from Acme');
      expect(mail.text).toContain('Yes, to Oslo in three days.');
      const replyTo = mail.replyTo?.value[0].address ?? '';
      expect(replyTo).toMatch(new RegExp(`^reply\\+[a-z2-7]{32}@${DOMAIN.replace(/\./g, '\\.')}$`));

      // The visitor answers by email; the agent's open page shows it without a reload.
      const answer = [
        'From: Ada <ada@example.com>',
        `To: ${replyTo}`,
        'Subject: Re: New reply from Acme',
        `Message-ID: <answer-${Date.now()}@mail.example.com>`,
        `In-Reply-To: ${mail.messageId}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Great, please send it to Bergen.',
        '',
        'On Tue, Nov 25, 2026 at 9:00 AM Acme wrote:',
        '> Yes, to Oslo in three days.',
        '',
      ].join('\r\n');
      await request(app.url)
        .post('/api/inbound/email')
        .set({ Authorization: `Bearer ${INBOUND_TOKEN}`, 'Content-Type': 'message/rfc822' })
        .send(Buffer.from(answer))
        .expect((res) => expect([200, 201, 202]).toContain(res.status));
      await log.getByText('Great, please send it to Bergen.').waitFor({ timeout: 10_000 });
      expect(await log.getByText('> Yes, to Oslo in three days.').count()).toBe(0);
      await closePage(page);
      page = undefined;
    },
  );

  step('a visitor asks for the conversation by email from the menu', async () => {
    const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
    page = await phone.newPage();
    watchConsole(page);
    try {
      await page.goto(site.url);
      await openChat(page);
      const frame = frameOf(page);
      const box = frame.getByRole('textbox', { name: 'Message' });
      await typeInto(box, 'Please send me this chat.');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByRole('button', { name: 'More options' }).click();
      await frame.getByRole('button', { name: 'Email me this conversation' }).click();
      await typeInto(frame.getByRole('textbox', { name: 'Email' }), 'grace@example.com');
      await frame.getByRole('button', { name: 'Send', exact: true }).click();
      await frame.getByText('The conversation is on its way to grace@example.com.').waitFor();
      const mail = await simpleParser((await smtp.next('grace@example.com')).raw);
      expect(mail.subject).toBe('Your conversation with Acme');
      expect(mail.text).toContain('Please send me this chat.');
      expect(await seriousAxeViolations(widgetFrame(page))).toEqual([]);
    } finally {
      await closePage(page);
      page = undefined;
      await site.close();
    }
  });

  step(
    'the owner sets business hours, the away message, the offline mode and transcripts',
    async () => {
      page = await desk.newPage();
      watchConsole(page);
      try {
        const login = await page.request.post(`${service}/api/agent/auth/login`, {
          data: { email: org.user.email, password: org.password },
        });
        expect(login.status()).toBe(200);
        await page.goto(`${service}/settings/sites/${org.site.id}`);
        const form = page.getByRole('form', { name: 'Availability and away mode' });
        await form.waitFor({ timeout: 15_000 });
        await form.getByRole('switch', { name: 'Business hours' }).check();
        await form.getByRole('switch', { name: 'Open on Saturday' }).check();
        await form.getByRole('textbox', { name: 'Saturday until' }).fill('08:00');
        await form.getByRole('button', { name: 'Save availability' }).click();
        // The catalog's sentence for the wrong range (never the API's text), under the hours.
        await form
          .getByRole('alert')
          .filter({ hasText: 'Each day needs start times before end times, as HH:MM.' })
          .waitFor();
        expect(await form.getByText(/must be after/).count()).toBe(0);
        await form.getByRole('textbox', { name: 'Saturday until' }).fill('13:00');
        await form.getByRole('textbox', { name: 'Away message' }).fill('Back on Monday!');
        await form.getByRole('combobox', { name: 'Expected reply time' }).click();
        await page.getByRole('option', { name: 'Within a day' }).click();
        await form.getByRole('combobox', { name: 'When nobody is there' }).click();
        await page.getByRole('option', { name: /leave-a-message form/ }).click();
        await form.getByRole('switch', { name: 'Send transcript when a chat is closed' }).check();
        await form.getByRole('button', { name: 'Save availability' }).click();
        await page.getByRole('status').filter({ hasText: 'Your changes were saved.' }).waitFor();
        const saved = await request(app.url)
          .get(`/api/agent/sites/${org.site.id}`)
          .set('Authorization', `Bearer ${org.token}`)
          .expect(200);
        expect(saved.body.data.widget_settings).toMatchObject({
          availability: {
            away_message: 'Back on Monday!',
            reply_time: 'day',
            business_hours: {
              monday: [{ start: '09:00', end: '17:00' }],
              saturday: [{ start: '09:00', end: '13:00' }],
              sunday: [],
            },
          },
          offline: { mode: 'ticket_form' },
          transcripts: { on_close: true },
        });
        expect(await seriousAxeViolations(page)).toEqual([]);
        await form.screenshot({ path: 'docs/dashboard-availability.png' });
      } finally {
        await page.close();
        page = undefined;
      }
    },
  );
});
