import { readFileSync } from 'node:fs';
import type { FrameLocator, Page } from 'playwright-core';
import request from 'supertest';
import { registerOrganization as register, type Registered } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  launchBrowser,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  typeInto,
  openChat,
} from '../utils/browser';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';

/** DESIGN section 11: the answer bot's "That helped" / "Talk to a person" in the widget. */
describeIfBrowser('the answer bot in the widget', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let service: string;
  let org: Registered;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    app = await startApp({ DATABASE_URL: databaseUrl });
    service = `http://127.0.0.1:${app.port}`;
    org = await register(app.url, 'Acme');
    const as = (method: 'put' | 'post' | 'patch', url: string, body: object) =>
      request(app.url)[method](url).set('Authorization', `Bearer ${org.token}`).send(body);
    // The owner is online (else the widget shows its away notice), and the bot is on.
    await as('patch', '/api/agent/presence', { status: 'online' }).expect(200);
    await as('put', `/api/agent/sites/${org.site.id}/answer-bot`, {
      enabled: true,
      min_score: 0.3,
      handoff_message: 'Our team takes it from here.',
      max_answers: 3,
    }).expect(200);
    await as('post', '/api/agent/bot-replies', {
      site_id: org.site.id,
      question: 'How do I reset my password?',
      answer: 'Click "Forgot password" on the login page; the link is valid for one hour.',
    }).expect(201);
  });

  afterAll(async () => {
    await app?.stop();
    await dropTestDatabase(databaseUrl);
  });

  const frameOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="Chat"]');

  /** A fresh visitor (a page of its own origin, so its own session) who asks the question. */
  async function visitorAsks(): Promise<{
    page: Page;
    chat: FrameLocator;
    close(): Promise<void>;
  }> {
    const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
    // A browser of its own (its own stored session); a phone's width.
    const browser: TestBrowser = await launchBrowser({
      viewport: { width: 390, height: 800 },
      isMobile: true,
    });
    const page = await browser.newPage();
    await page.goto(site.url);
    await openChat(page);
    const chat = frameOf(page);
    const box = chat.getByRole('textbox', { name: 'Message' });
    await typeInto(box, 'I forgot my password, how can I change it?');
    await box.press('Enter');
    await chat
      .getByRole('log', { name: 'Messages' })
      .getByText('Forgot password', { exact: false })
      .waitFor({ timeout: 20_000 });
    return {
      page,
      chat,
      async close() {
        await browser.close();
        await site.close();
      },
    };
  }

  it('shows the answer with its two buttons; "Talk to a person" brings the handoff message', async () => {
    const visitor = await visitorAsks();
    try {
      const { page, chat } = visitor;
      const group = chat.getByRole('group', { name: 'Did this answer help?' });
      await group.getByRole('button', { name: 'That helped' }).waitFor();
      const handoff = group.getByRole('button', { name: 'Talk to a person' });
      await handoff.waitFor();
      await page.screenshot({ path: `${SHOTS}/widget-answer-bot-390.png` });
      const inner = page.frames().find((f) => f.url().includes('/widget/frame.html'))!;
      expect(
        await seriousAxeViolations({
          addScriptTag: async ({ path }: { path?: string }) => {
            await inner.evaluate(readFileSync(path!, 'utf8'));
            return null as never;
          },
          evaluate: inner.evaluate.bind(inner),
        }),
      ).toEqual([]);
      // By the keyboard.
      await handoff.focus();
      await handoff.press('Enter');
      await chat
        .getByRole('log', { name: 'Messages' })
        .getByText('Our team takes it from here.')
        .waitFor({ timeout: 15_000 });
      await expect(group.count()).resolves.toBe(0);
      await page.screenshot({ path: `${SHOTS}/widget-answer-bot-handoff-390.png` });
    } finally {
      await visitor.close();
    }
  });

  it('"That helped" ends the chat', async () => {
    const visitor = await visitorAsks();
    try {
      const { page, chat } = visitor;
      await chat.getByRole('button', { name: 'That helped' }).click();
      await chat.getByRole('status').getByText('This conversation has ended.').waitFor();
      await expect(chat.getByRole('button', { name: 'Talk to a person' }).count()).resolves.toBe(0);
      await page.screenshot({ path: `${SHOTS}/widget-answer-bot-resolved-390.png` });
    } finally {
      await visitor.close();
    }
  });
});
