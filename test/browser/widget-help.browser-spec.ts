import type { FrameLocator, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, freePort, startApp } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  launchBrowser,
  screenshotOnFailure,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  typeInto,
  openChat,
} from '../utils/browser';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

/**
 * The widget's Help view (issue 29, DESIGN section 10), on a host page of another origin, by
 * keyboard alone: suggestions when it opens, search as you type forgiving a typo, an article read
 * inline, "Was this helpful?" answered once, back to the list and on to the chat.
 */
describeIfBrowser('the widget: Help view', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let desk: TestBrowser;
  let phone: TestBrowser;
  let service: string;
  let org: Registered;
  let page: Page | undefined;
  const ids: Record<string, number> = {};
  const step = screenshotOnFailure('widget-help', () => page);
  /** The host page, sized for phones too. */
  const host = () =>
    hostPage(service, org.site.widget_key).replace(
      '<meta charset="utf-8">',
      '<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    );
  const frameOf = (p: Page): FrameLocator => p.frameLocator('iframe[title="Chat"]');
  const widgetFrame = (p: Page) => p.frames().find((f) => f.url().includes('/widget/'))!;
  const focused = (locator: Locator) =>
    locator
      .evaluate(
        // The launcher lives in a shadow root; the rest in the frame's document.
        (el) => (el.getRootNode() as unknown as { activeElement: unknown }).activeElement === el,
      )
      .catch(() => false);
  /** Presses Tab (or Shift+Tab) until `target` has the focus. */
  const tabTo = async (p: Page, target: Locator, key = 'Tab') => {
    for (let i = 0; i < 15; i += 1) {
      if (await focused(target)) return;
      await p.keyboard.press(key);
    }
    expect(await focused(target)).toBe(true);
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const port = await freePort();
    service = `http://127.0.0.1:${port}`;
    app = await startApp({ DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: service });
    desk = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true });
    org = await registerOrganization(app.url, 'Acme Help');
    const write = async (key: string, article: Record<string, unknown>) => {
      const res = await request(app.url)
        .post('/api/agent/kb/articles')
        .set('Authorization', `Bearer ${org.token}`)
        .send({ site_id: org.site.id, locale: 'en', status: 'published', ...article })
        .expect(201);
      ids[key] = res.body.data.id as number;
    };
    await write('password', {
      title: 'Reset your password',
      excerpt: 'Locked out? Get back in.',
      body: '## Steps\n\n1. Open **Settings**.\n2. Choose *Reset password* and follow the mail we send.\n\n<img src=x onerror=alert(1)>',
    });
    await write('shipping', {
      title: 'Shipping times',
      excerpt: 'When your parcel arrives.',
      body: 'We ship within **two days**; tracking arrives by mail.',
    });
    await write('draft', { title: 'Secret draft', body: 'Not for visitors.', status: 'draft' });
  });

  afterAll(async () => {
    await desk?.close();
    await phone?.close();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
  });

  step(
    'opens with suggestions, finds an article by a typo as you type, reads it, answers once, by keyboard alone',
    async () => {
      const site = await startHostSite({ '/': host() });
      try {
        page = await desk.newPage();
        const p = page;
        await p.goto(site.url);
        expect(new URL(site.url).origin).not.toBe(new URL(service).origin);
        const launcher = p.getByRole('button', { name: 'Open chat' });
        await launcher.waitFor({ timeout: 15_000 });
        await tabTo(p, launcher);
        await p.keyboard.press('Enter');
        const frame = frameOf(p);
        const box = frame.getByRole('textbox', { name: 'Message' });
        await eventually(() => focused(box));

        // The menu's Help entry, reached backwards from the message box.
        const menuButton = frame.getByRole('button', { name: 'More options' });
        await tabTo(p, menuButton, 'Shift+Tab');
        await p.keyboard.press('Enter');
        const help = frame.getByRole('navigation', { name: 'More options' }).getByRole('button', {
          name: 'Help',
        });
        await tabTo(p, help);
        await p.keyboard.press('Enter');

        // Suggestions, and the search box takes the keyboard.
        const view = frame.getByRole('region', { name: 'Help' });
        const search = view.getByRole('searchbox', { name: 'Search our help articles' });
        await view.getByRole('heading', { name: 'Suggested articles' }).waitFor();
        await view.getByRole('button', { name: /^Reset your password/ }).waitFor();
        await view.getByRole('button', { name: /^Shipping times/ }).waitFor();
        expect(await view.getByText('Secret draft').count()).toBe(0);
        await eventually(() => focused(search));
        expect(await seriousAxeViolations(widgetFrame(p))).toEqual([]);
        await p.screenshot({ path: 'docs/widget-help-1440.png' });

        // Search as you type: a typo'd word still finds it, with its snippet's match marked.
        await p.keyboard.type('pasword');
        await view.getByRole('heading', { name: 'Articles found' }).waitFor();
        const hit = view.getByRole('button', { name: /^Reset your password/ });
        await hit.waitFor();
        await eventually(async () => (await view.getByRole('listitem').count()) === 1);
        await p.keyboard.press('Control+A');
        await p.keyboard.type('mail');
        await view.getByRole('button', { name: /^Shipping times/ }).waitFor();
        expect(await view.locator('mark').first().innerText()).toMatch(/^mail$/i);
        await p.keyboard.press('Control+A');
        await p.keyboard.type('pasword');
        await view.getByRole('button', { name: /^Shipping times/ }).waitFor({ state: 'detached' });
        await tabTo(p, hit);
        await p.keyboard.press('Enter');

        // The article, inline, from the server's HTML (its raw HTML stays text).
        const article = frame.getByRole('article', { name: 'Reset your password' });
        await article.getByRole('heading', { name: 'Steps' }).waitFor();
        await article.locator('strong', { hasText: 'Settings' }).waitFor();
        expect(await article.locator('img').count()).toBe(0);
        await eventually(() =>
          focused(article.getByRole('heading', { name: 'Reset your password' })),
        );
        expect(await seriousAxeViolations(widgetFrame(p))).toEqual([]);
        await p.screenshot({ path: 'docs/widget-help-article-1440.png' });

        // Was this helpful? Yes, once.
        await frame.getByText('Was this helpful?').waitFor();
        const yes = article.getByRole('button', { name: 'Yes', exact: true });
        await tabTo(p, yes);
        await p.keyboard.press('Enter');
        await article
          .getByRole('status')
          .filter({ hasText: 'Thanks for your feedback!' })
          .waitFor();
        expect(await article.getByRole('button', { name: 'Yes', exact: true }).count()).toBe(0);
        const counted = await request(app.url)
          .get(`/api/agent/kb/articles/${ids.password}`)
          .set('Authorization', `Bearer ${org.token}`)
          .expect(200);
        expect(counted.body.data).toMatchObject({ helpful: 1, not_helpful: 0, views: 1 });

        // Back to the list (the article it came from keeps the focus), read again: asked no more.
        const back = article.getByRole('button', { name: /Back to articles/ });
        await tabTo(p, back, 'Shift+Tab');
        await p.keyboard.press('Enter');
        await eventually(() => focused(view.getByRole('button', { name: /^Reset your password/ })));
        await p.keyboard.press('Enter');
        await article.getByText('Thanks for your feedback!').waitFor();
        expect(await article.getByRole('button', { name: 'No', exact: true }).count()).toBe(0);

        // Chat with us: back to the conversation, the message box takes the keyboard.
        const chat = article.getByRole('button', { name: 'Chat with us' });
        await tabTo(p, chat);
        await p.keyboard.press('Enter');
        await eventually(() => focused(box));
        await p.keyboard.type('The article helped, thanks!');
        await p.keyboard.press('Enter');
        await frame.getByText('The article helped, thanks!').waitFor();
      } finally {
        await site.close();
      }
    },
  );

  step('on a phone: the Help view fits, a typo finds an article, "No" is counted', async () => {
    const site = await startHostSite({ '/': host() });
    try {
      page = await phone.newPage();
      const p = page;
      await p.goto(site.url);
      await openChat(p);
      const frame = frameOf(p);
      await frame.getByRole('button', { name: 'More options' }).click();
      await frame.getByRole('button', { name: 'Help', exact: true }).click();
      const view = frame.getByRole('region', { name: 'Help' });
      await view.getByRole('button', { name: /^Shipping times/ }).waitFor();
      expect(await seriousAxeViolations(widgetFrame(p))).toEqual([]);
      await p.screenshot({ path: 'docs/widget-help-390.png' });
      await typeInto(view.getByRole('searchbox', { name: 'Search our help articles' }), 'shiping');
      await view.getByRole('heading', { name: 'Articles found' }).waitFor();
      await view.getByRole('button', { name: /^Shipping times/ }).click();
      const article = frame.getByRole('article', { name: 'Shipping times' });
      await article.locator('strong', { hasText: 'two days' }).waitFor();
      await article.getByRole('button', { name: 'No', exact: true }).click();
      await article.getByText('Thanks for your feedback!').waitFor();
      await p.screenshot({ path: 'docs/widget-help-article-390.png' });
      const counted = await request(app.url)
        .get(`/api/agent/kb/articles/${ids.shipping}`)
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);
      expect(counted.body.data).toMatchObject({ helpful: 0, not_helpful: 1 });
    } finally {
      await site.close();
    }
  });
});
