import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { FrameLocator, Page } from 'playwright-core';
import request from 'supertest';
import { type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  screenshotOnFailure,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  typeInto,
  openChat,
} from '../utils/browser';
import { connect, type TestSocket } from '../utils/sockets';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

interface ChatMessage {
  id: number;
  body: string;
  sender_type: string;
  conversation_id: number;
  private?: boolean;
}

/** Longer than the widget's ten-second ack wait: a message must not turn "Not sent." offline. */
const LONG_DROP_MS = 11_500;

/**
 * Neither app hides a lost connection (issue 26): the widget and the dashboard say
 * "Reconnecting…", keep what was written meanwhile visibly "Sending…", and send it in order once
 * the connection is back; a widget socket the server closed comes back too (with a fresh init
 * when its session was refused).
 */
describeIfBrowser('a lost connection in the widget and the dashboard', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let org: Registered;
  let agent: TestSocket;
  let page: Page | undefined;
  const step = screenshotOnFailure('connection-loss', () => page);

  beforeAll(async () => {
    ({
      app,
      service,
      browser,
      owner: org,
    } = suite = await startDashboardSuite({ organization: 'Acme Links', viewport: null }));
    await request(app.url)
      .patch('/api/agent/presence')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ status: 'online' })
      .expect(200);
    agent = await connect(service, '/agent', org.token);
  });

  afterAll(async () => {
    agent?.close();
    await suite?.stop();
  });

  const frameOf = (host: Page): FrameLocator => host.frameLocator('iframe[title="Chat"]');

  /** axe inside the widget's frame (its CSP refuses script tags, so axe is evaluated). */
  const axeInFrame = (host: Page) => {
    const inner = host.frames().find((f) => f.url().includes('/widget/frame.html'))!;
    return seriousAxeViolations({
      addScriptTag: async ({ path }: { path?: string }) => {
        await inner.evaluate(readFileSync(path!, 'utf8'));
        return null as never;
      },
      evaluate: inner.evaluate.bind(inner),
    });
  };

  const setSiteActive = (active: boolean) =>
    request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ is_active: active })
      .expect(200);

  /** The host page with the chat open and a first message sent (so a conversation exists). */
  async function openWidget(first: string) {
    const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
    page = await browser.newPage();
    await page.goto(site.url);
    await openChat(page);
    const frame = frameOf(page);
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.waitFor({ timeout: 15_000 });
    await typeInto(box, first);
    await box.press('Enter');
    const sent = await agent.next<ChatMessage>('message.created', (m) => m.body === first);
    return { site, frame, box, sent, log: frame.getByRole('log', { name: 'Messages' }) };
  }

  step(
    'widget: messages written offline stay "Sending…" and go out in order when back',
    async () => {
      const { site, frame, box, log } = await openWidget('Before the drop');
      try {
        await page!.context().setOffline(true);
        await frame
          .getByRole('status')
          .filter({ hasText: 'Reconnecting…' })
          .waitFor({ timeout: 30_000 });
        await typeInto(box, 'Written offline, first');
        await box.press('Enter');
        await typeInto(box, 'Written offline, second');
        await box.press('Enter');
        const first = log.getByText('Written offline, first', { exact: true });
        await first.waitFor();
        // Longer than any ack wait: both still pending, none given up on.
        await page!.waitForTimeout(LONG_DROP_MS);
        expect(await log.getByText('Sending…').count()).toBe(2);
        expect(await log.getByText('Not sent.').count()).toBe(0);
        expect(await axeInFrame(page!)).toEqual([]);
        await page!.screenshot({ path: `${os.tmpdir()}/connection-widget-offline.png` });

        await page!.context().setOffline(false);
        const one = await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'Written offline, first',
          30_000,
        );
        const two = await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'Written offline, second',
          30_000,
        );
        expect(two.id).toBeGreaterThan(one.id);
        await frame.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor({
          state: 'detached',
        });
        await eventually(async () => (await log.getByText('Sending…').count()) === 0);
        for (const text of ['Written offline, first', 'Written offline, second']) {
          await log.getByText(text, { exact: true }).waitFor();
          expect(await log.getByText(text, { exact: true }).count()).toBe(1);
        }
      } finally {
        await page?.context().setOffline(false);
        await page?.close();
        await site.close();
      }
    },
  );

  step(
    'widget: a socket the server closed comes back, with a fresh init when refused',
    async () => {
      const { site, frame, box, log } = await openWidget('Hello there');
      try {
        // The site is switched off: the next event is refused and the server closes the socket.
        await setSiteActive(false);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        await typeInto(box, 'Are you still there?');
        await box.press('Enter');
        await frame
          .getByRole('status')
          .filter({ hasText: 'Reconnecting…' })
          .waitFor({ timeout: 15_000 });
        const pending = log.locator('.pending', { hasText: 'Are you still there?' });
        await pending.getByText('Sending…').waitFor();

        // Back on: the widget reconnects by itself and the message goes out, once.
        await setSiteActive(true);
        await agent.next<ChatMessage>(
          'message.created',
          (m) => m.body === 'Are you still there?',
          40_000,
        );
        await frame.getByRole('status').filter({ hasText: 'Reconnecting…' }).waitFor({
          state: 'detached',
          timeout: 15_000,
        });
        await pending.waitFor({ state: 'detached' });
        expect(await log.getByText('Are you still there?', { exact: true }).count()).toBe(1);
        // Live again: an agent's reply arrives.
        await request(app.url)
          .post(`/api/agent/conversations/${(await lastConversation()).id}/messages`)
          .set('Authorization', `Bearer ${org.token}`)
          .send({ body: 'Yes, still here.' })
          .expect(201);
        await log.getByText('Yes, still here.').waitFor({ timeout: 15_000 });
      } finally {
        await setSiteActive(true);
        await page?.close();
        await site.close();
      }
    },
  );

  async function lastConversation(): Promise<{ id: number }> {
    const res = await request(app.url)
      .get('/api/agent/conversations')
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    return (res.body.data as { id: number }[])[0];
  }

  step(
    'dashboard: replies written offline stay "Sending…" and go out in order when back',
    async () => {
      const visitor = (
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: org.site.widget_key, visitor_name: 'Olga Offline' })
          .expect(200)
      ).body as { session_token: string; conversation_id: number };
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${visitor.session_token}`)
        .send({ body: 'My parcel is late.' })
        .expect(201);

      page = await browser.newPage();
      await page.goto(`${service}/login`);
      await page.getByLabel('Email', { exact: true }).fill(org.user.email);
      await page.getByLabel('Password', { exact: true }).fill(org.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
      await page.goto(`${service}/inbox/${visitor.conversation_id}`);
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      const log = page.getByRole('log', { name: 'Messages' });
      await log.getByText('My parcel is late.').waitFor();

      await page.context().setOffline(true);
      await page
        .getByRole('status')
        .filter({ hasText: 'Reconnecting…' })
        .waitFor({ timeout: 30_000 });
      const reply = page.getByRole('textbox', { name: 'Reply' });
      await reply.fill('Checking it now.');
      await reply.press('Enter');
      await reply.fill('It is with the courier.');
      await reply.press('Enter');
      await log.getByText('Checking it now.', { exact: true }).waitFor();
      await log.getByText('It is with the courier.', { exact: true }).waitFor();
      expect(await log.getByText('Sending…').count()).toBe(2);
      // Nothing was given back to the box, and no error is shown.
      expect(await reply.inputValue()).toBe('');
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${os.tmpdir()}/connection-dashboard-offline.png` });

      await page.context().setOffline(false);
      const one = await agent.next<ChatMessage>(
        'message.created',
        (m) => m.body === 'Checking it now.',
        30_000,
      );
      const two = await agent.next<ChatMessage>(
        'message.created',
        (m) => m.body === 'It is with the courier.',
        30_000,
      );
      expect(two.id).toBeGreaterThan(one.id);
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
      await log.getByText('Sending…').first().waitFor({ state: 'detached' });
      for (const text of ['Checking it now.', 'It is with the courier.']) {
        expect(await log.getByText(text, { exact: true }).count()).toBe(1);
      }
      await page.close();
      page = undefined;
    },
  );
});
