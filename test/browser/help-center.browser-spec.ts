import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, freePort, startApp } from '../utils/app-process';
import {
  browserAvailable,
  launchBrowser,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
  openChat,
} from '../utils/browser';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

const ARTICLE = `Forgot your password? You can set a new one in a minute.

## Steps

1. Open **Settings** from the menu.
2. Choose *Security*, then **Reset password**.
3. Follow the link we mail you: it works for one hour.

| Plan | Reset by |
| --- | --- |
| Free | Email |
| Business | Email or SSO |

\`\`\`
https://example.com/account/security/reset-password?with=a-very-long-query-string-that-must-not-overflow
\`\`\`

Still stuck? Read [our security guide](https://example.com/security).`;

/**
 * The public help center in a real browser (DESIGN section 10): complete with JavaScript off, on
 * a phone, accessible, and with the widget's launcher when scripts run, under its strict policy.
 */
describeIfBrowser('help center in the browser', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let service: string;
  let org: Registered;
  let noScript: TestBrowser;
  let phone: TestBrowser;
  let desk: TestBrowser;
  let page: Page | undefined;
  const step = screenshotOnFailure('help-center', () => page);

  const api = (method: 'post' | 'patch', url: string, body: object) => {
    const call = method === 'post' ? request(app.url).post(url) : request(app.url).patch(url);
    return call
      .set('Authorization', `Bearer ${org.token}`)
      .send(body)
      .expect((res) => {
        if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
      });
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const port = await freePort();
    service = `http://127.0.0.1:${port}`;
    app = await startApp({ DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: service });
    org = await registerOrganization(app.url, 'Acme');
    await api('patch', `/api/agent/sites/${org.site.id}`, {
      name: 'Acme Outdoor',
      widget_settings: { appearance: { color: '#0f766e' } },
      help_center: { enabled: true, title: 'Acme Help', locales: ['en', 'de'] },
    });
    const account = await api('post', '/api/agent/kb/categories', {
      site_id: org.site.id,
      name: 'Account and login',
      description: 'Passwords, two-factor sign-in and your profile.',
      position: 1,
    });
    const orders = await api('post', '/api/agent/kb/categories', {
      site_id: org.site.id,
      name: 'Orders and shipping',
      description: 'Tracking, delivery times and returns.',
      position: 2,
    });
    const reset = await api('post', '/api/agent/kb/articles', {
      site_id: org.site.id,
      title: 'Reset your password',
      excerpt: 'Set a new password in a minute.',
      body: ARTICLE,
      category_id: account.body.data.id,
      status: 'published',
    });
    await api('post', '/api/agent/kb/articles', {
      site_id: org.site.id,
      locale: 'de',
      title: 'Passwort zurücksetzen',
      body: 'Öffnen Sie die **Einstellungen**.',
      translation_of: reset.body.data.id,
      status: 'published',
    });
    for (const [title, category] of [
      ['Turn on two-factor sign-in', account],
      ['Change your email address', account],
      ['Track your order', orders],
      ['Delivery times by country', orders],
      ['Return an item', orders],
    ] as const) {
      await api('post', '/api/agent/kb/articles', {
        site_id: org.site.id,
        title,
        excerpt: `${title}: a short guide.`,
        body: `How to ${title.toLowerCase()}.`,
        category_id: category.body.data.id,
        status: 'published',
      });
    }
    noScript = await launchBrowser({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      javaScriptEnabled: false,
    });
    phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true });
    desk = await launchBrowser({ viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    await noScript?.close();
    await phone?.close();
    await desk?.close();
    await app?.stop();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  step('is complete without JavaScript on a phone: home, search, article, category', async () => {
    page = await noScript.newPage();
    await page.goto(`${service}/help/${org.site.widget_key}/`);
    expect(page.url()).toBe(`${service}/help/${org.site.widget_key}/en/`);
    await page.getByRole('heading', { level: 1, name: 'Acme Help' }).waitFor();
    await page.getByRole('link', { name: 'Orders and shipping' }).waitFor();

    await page.getByRole('searchbox', { name: 'Search the help center' }).fill('pasword');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { level: 1, name: 'Results for “pasword”' }).waitFor();
    await page.getByRole('link', { name: 'Reset your password' }).click();

    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Steps' }).waitFor();
    await page.getByRole('cell', { name: 'Email or SSO' }).waitFor();
    await page.getByRole('heading', { name: 'Still need help? Chat with us' }).waitFor();
    await page.screenshot({
      path: path.join(os.tmpdir(), 'help-center-article-390-nojs.png'),
      fullPage: true,
    });
    await page.getByRole('link', { name: 'Deutsch' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Passwort zurücksetzen' }).waitFor();
    await page.goBack();
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Account and login' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Account and login' }).waitFor();
    await page.getByRole('link', { name: 'Turn on two-factor sign-in' }).waitFor();
    await page.close();
  });

  step(
    'fits a 390 px phone, is axe clean, and shows the chat launcher under its policy',
    async () => {
      page = await phone.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content.Security.Policy|Refused to/i.test(message.text()))
          refused.push(message.text());
      });
      for (const address of ['en/', 'en/articles/reset-your-password', 'en/search?q=order']) {
        await page.goto(`${service}/help/${org.site.widget_key}/${address}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        expect([address, width]).toEqual([address, 390]);
        expect([address, await seriousAxeViolations(page)]).toEqual([address, []]);
      }
      await page.goto(`${service}/help/${org.site.widget_key}/en/articles/reset-your-password`);
      // The loader draws its launcher (in a shadow root) and the chat opens from it.
      await openChat(page);
      await page.frameLocator('iframe').first().locator('body').waitFor();
      await page.screenshot({ path: path.join(os.tmpdir(), 'help-center-article-390-chat.png') });
      expect(refused).toEqual([]);
      await page.close();
    },
  );

  step('looks right at 1440 px (screenshots of home and article)', async () => {
    page = await desk.newPage();
    await page.goto(`${service}/help/${org.site.widget_key}/en/`);
    await page.getByRole('button', { name: 'Open chat' }).waitFor();
    await page.screenshot({
      path: path.join(os.tmpdir(), 'help-center-home-1440.png'),
      fullPage: true,
    });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(`${service}/help/${org.site.widget_key}/en/articles/reset-your-password`);
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await page.screenshot({
      path: path.join(os.tmpdir(), 'help-center-article-1440.png'),
      fullPage: true,
    });
    await page.goto(`${service}/help/${org.site.widget_key}/en/articles/not-there`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  });
});
