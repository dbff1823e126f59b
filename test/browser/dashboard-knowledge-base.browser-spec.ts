import os from 'node:os';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

/** The members of a `<select>` the filter test sets (the tests compile without the DOM library). */
interface SelectElement {
  labels: { textContent: string | null }[];
  value: string;
  dispatchEvent(event: Event): boolean;
}

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const shot = (name: string) => `${os.tmpdir()}/kb-${name}.png`;

/**
 * The knowledge base in the dashboard (issue 29, DESIGN section 10): an owner makes categories,
 * writes an article with a live preview, publishes, translates and archives it; an agent reads
 * the same articles and cannot change them; the site editor turns the help center on.
 */
describeIfBrowser('the dashboard: knowledge base', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  const ownerLogin = () => ({
    name: 'Olivia Owner',
    email: owner.user.email,
    password: owner.password,
  });
  const step = screenshotOnFailure('dashboard-kb', () => page);
  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });
  let articleId = 0;

  beforeAll(async () => {
    suite = await startDashboardSuite({ organization: 'Acme Knowledge' });
    ({ app, browser, service, owner } = suite);
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
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: `Account menu for ${who.name}` }).waitFor();
    await page.goto(`${service}${to}`);
    return page;
  };
  const status = (p: Page, text: string | RegExp) =>
    p.getByRole('status').filter({ hasText: text }).waitFor();

  step('an owner makes categories: adds, renames, reorders, deletes', async () => {
    const p = await logIn(ownerLogin(), '/inbox');
    await p.getByRole('link', { name: 'Knowledge base' }).click();
    await p.getByRole('heading', { name: 'Knowledge base', level: 1 }).waitFor();
    await p.getByText('No articles match.').waitFor();
    await p.getByRole('link', { name: 'Categories' }).click();
    await p.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    const add = async (name: string) => {
      await p.getByRole('textbox', { name: 'New category' }).fill(name);
      await p.getByRole('button', { name: 'Add category' }).click();
      await p.getByRole('list', { name: 'Categories' }).getByText(name, { exact: true }).waitFor();
    };
    await add('Billing');
    await add('Accounts');
    await add('Old stuff');
    const names = () =>
      p.getByRole('list', { name: 'Categories' }).getByRole('listitem').allInnerTexts();
    // Accounts moves above Billing.
    await p.getByRole('button', { name: 'Move Accounts up' }).click();
    await expectEventually(
      async () => (await names()).map((n) => n.split('\n')[0]),
      ['Accounts', 'Billing', 'Old stuff'],
    );
    await p.getByRole('button', { name: 'Rename Billing' }).click();
    const dialog = p.getByRole('dialog', { name: 'Rename the category' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Billing and plans');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await p.getByRole('list', { name: 'Categories' }).getByText('Billing and plans').waitFor();
    // A name whose slug is taken: the catalog's sentence, not the server's.
    await p.getByRole('textbox', { name: 'New category' }).fill('Accounts');
    await p.getByRole('button', { name: 'Add category' }).click();
    await p
      .getByRole('alert')
      .filter({ hasText: 'A category with that name or slug already exists in this language.' })
      .waitFor();
    // Delete behind a confirmation.
    await p.getByRole('button', { name: 'Delete Old stuff' }).click();
    const confirm = p.getByRole('dialog', { name: 'Delete this category?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await p
      .getByRole('list', { name: 'Categories' })
      .getByText('Old stuff')
      .waitFor({ state: 'detached' });
    expect(await seriousAxeViolations(p)).toEqual([]);
    const stored = await request(app.url)
      .get('/api/agent/kb/categories')
      .set(asOwner())
      .expect(200);
    expect(
      (stored.body.data as { name: string; position: number }[])
        .sort((a, b) => a.position - b.position)
        .map((c) => c.name),
    ).toEqual(['Accounts', 'Billing and plans']);
    await p.screenshot({ path: shot('categories-owner-1440') });
  });

  step(
    'an owner writes an article with a live preview, publishes, translates, archives',
    async () => {
      const p = page!;
      await p.getByRole('link', { name: 'All articles' }).click();
      await p.getByRole('link', { name: 'New article' }).click();
      await p.getByRole('heading', { name: 'New article', level: 1 }).waitFor();
      await p.getByRole('textbox', { name: 'Title' }).fill('Reset your password');
      await p.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Accounts' });
      await p.getByRole('textbox', { name: 'Excerpt' }).fill('Locked out? Get back in.');
      const body = p.getByRole('textbox', { name: 'Body (Markdown)' });
      await body.fill(
        '## Steps\n\n1. Open **Settings**\n2. Choose *Password*\n\n<script>alert(1)</script>\n\n[Help](javascript:alert(1))',
      );
      // The preview, as it is typed: Markdown rendered, raw HTML and unsafe links left as text.
      const preview = p.getByRole('region', { name: 'Preview' });
      await preview.getByRole('heading', { name: 'Steps' }).waitFor();
      await preview.locator('strong', { hasText: 'Settings' }).waitFor();
      await preview.getByText('<script>alert(1)</script>').waitFor();
      expect(await preview.locator('script').count()).toBe(0);
      expect(await preview.getByRole('link').count()).toBe(0);
      await body.fill('## Steps\n\n1. Open **Settings**\n2. Choose *Password*, then **Reset**.');
      await preview.locator('em', { hasText: 'Password' }).waitFor();

      // A bad slug: the catalog's sentence under the field.
      await p.getByRole('textbox', { name: 'Slug' }).fill('Not A Slug!');
      await p.getByRole('button', { name: 'Save as draft' }).click();
      await p
        .getByText(
          'The slug may only hold lower-case letters and digits joined by single dashes (at most 120).',
        )
        .waitFor();
      await p
        .getByRole('alert')
        .filter({ hasText: 'Please check the highlighted fields.' })
        .waitFor();
      await p.getByRole('textbox', { name: 'Slug' }).fill('');
      await p.getByRole('button', { name: 'Save as draft' }).click();
      await status(p, 'Saved.');
      await p.waitForURL(/\/kb\/articles\/\d+$/);
      articleId = Number(/(\d+)$/.exec(p.url())![1]);
      await p.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
      await p.getByText('Draft', { exact: true }).first().waitFor();
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.screenshot({ path: shot('editor-owner-1440'), fullPage: true });

      await p.getByRole('button', { name: 'Publish' }).click();
      await status(p, 'Published: visitors can read it now.');
      const published = await request(app.url)
        .get(`/api/agent/kb/articles/${articleId}`)
        .set(asOwner())
        .expect(200);
      expect(published.body.data).toMatchObject({
        status: 'published',
        slug: 'reset-your-password',
        excerpt: 'Locked out? Get back in.',
      });
      expect(published.body.data.html).toContain('<em>Password</em>');
      await p.getByRole('link', { name: published.body.data.url as string }).waitFor();

      // Translate to German: a linked draft, opened in the editor, the original beside it.
      await p.getByRole('button', { name: 'Translate to German' }).click();
      await status(p, 'A draft in German was created from this article.');
      await p.waitForURL((url) => !url.pathname.endsWith(`/${articleId}`));
      const translations = p.getByRole('region', { name: 'Translations' });
      await translations
        .getByRole('link', { name: 'English: Reset your password (Original)' })
        .waitFor();
      const germanId = Number(/(\d+)$/.exec(p.url())![1]);
      const german = await request(app.url)
        .get(`/api/agent/kb/articles/${germanId}`)
        .set(asOwner())
        .expect(200);
      expect(german.body.data).toMatchObject({
        locale: 'de',
        status: 'draft',
        translation_of: articleId,
      });
      await p.getByRole('textbox', { name: 'Title' }).fill('Passwort zurücksetzen');
      await p.getByRole('button', { name: 'Save', exact: true }).click();
      await status(p, 'Saved.');
      await translations
        .getByRole('link', { name: 'English: Reset your password (Original)' })
        .click();
      await p.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
      await p
        .getByRole('region', { name: 'Translations' })
        .getByRole('link', { name: 'German: Passwort zurücksetzen' })
        .waitFor();

      // The list: filters, search, status badges and counts.
      await p.getByRole('link', { name: 'All articles' }).click();
      const table = p.getByRole('table', { name: 'Articles' });
      await table.getByRole('link', { name: 'Passwort zurücksetzen' }).waitFor();
      await p.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'English' });
      await table
        .getByRole('link', { name: 'Passwort zurücksetzen' })
        .waitFor({ state: 'detached' });
      await p.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Published' });
      await table.getByRole('link', { name: 'Reset your password' }).waitFor();
      await p.getByRole('searchbox', { name: 'Search articles' }).fill('zebra');
      await p.getByText('No articles match.').waitFor();
      // The search forgives a typo in a title.
      await p.getByRole('searchbox', { name: 'Search articles' }).fill('pasword');
      await p
        .getByRole('table', { name: 'Articles' })
        .getByRole('link', { name: 'Reset your password' })
        .waitFor();
      await p.getByRole('searchbox', { name: 'Search articles' }).fill('');
      await p.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Any' });
      await p.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Any' });
      await table
        .getByRole('row', { name: /Reset your password/ })
        .getByText('Published')
        .waitFor();
      await table
        .getByRole('row', { name: /Passwort/ })
        .getByText('Draft')
        .waitFor();
      await table
        .getByRole('row', { name: /Reset your password/ })
        .getByText('0 yes · 0 no')
        .waitFor();
      // Two filters chosen in one go (before React renders in between) both hold.
      const chooseAtOnce = (choices: [string, string][]) =>
        p.locator('select').evaluateAll((selects, pairs) => {
          for (const [label, value] of pairs) {
            const select = (selects as unknown as SelectElement[]).find(
              (s) => s.labels[0]?.textContent?.trim() === label,
            )!;
            select.value = value;
            select.dispatchEvent(new Event('change', { bubbles: true }));
          }
        }, choices);
      await chooseAtOnce([
        ['Status', 'published'],
        ['Language', 'en'],
      ]);
      await p.waitForURL((url) => url.searchParams.get('locale') === 'en');
      expect(new URL(p.url()).searchParams.get('status')).toBe('published');
      await chooseAtOnce([
        ['Status', ''],
        ['Language', ''],
      ]);
      await p.waitForURL((url) => !url.searchParams.has('locale'));
      expect(new URL(p.url()).searchParams.has('status')).toBe(false);
      await table
        .getByRole('row', { name: /Passwort/ })
        .getByText('Draft')
        .waitFor();
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.screenshot({ path: shot('list-owner-1440') });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.reload();
      await table.getByRole('link', { name: 'Reset your password' }).waitFor();
      await p.screenshot({ path: shot('list-owner-390'), fullPage: true });
      await p.goto(`${service}/kb/articles/${articleId}`);
      await p.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
      await p.screenshot({ path: shot('editor-owner-390'), fullPage: true });
      await p.setViewportSize({ width: 1440, height: 900 });

      // Archive, then delete the German draft behind a confirmation.
      await p.getByRole('button', { name: 'Archive' }).click();
      await status(p, 'Archived: visitors no longer see it.');
      await p.goto(`${service}/kb/articles/${germanId}`);
      await p.getByRole('button', { name: 'Delete' }).click();
      const confirm = p.getByRole('dialog', { name: 'Delete this article?' });
      await confirm
        .getByText('“Passwort zurücksetzen” and its counts are deleted for good.', { exact: false })
        .waitFor();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await p.getByRole('heading', { name: 'Knowledge base', level: 1 }).waitFor();
      await request(app.url).get(`/api/agent/kb/articles/${germanId}`).set(asOwner()).expect(404);
      const archived = await request(app.url)
        .get(`/api/agent/kb/articles/${articleId}`)
        .set(asOwner())
        .expect(200);
      expect(archived.body.data.status).toBe('archived');
      // Published again for the agent's turn.
      await request(app.url)
        .patch(`/api/agent/kb/articles/${articleId}`)
        .set(asOwner())
        .send({ status: 'published' })
        .expect(200);
    },
  );

  step('an agent reads the knowledge base and cannot change it', async () => {
    const p = await logIn(agent, '/inbox');
    await p.getByRole('link', { name: 'Knowledge base' }).click();
    await p.getByText('You can read the knowledge base; owners and admins write it.').waitFor();
    const table = p.getByRole('table', { name: 'Articles' });
    await table.getByRole('link', { name: 'Reset your password' }).waitFor();
    expect(await p.getByRole('link', { name: 'New article' }).count()).toBe(0);
    expect(await seriousAxeViolations(p)).toEqual([]);
    await p.screenshot({ path: shot('list-agent-1440') });
    await table.getByRole('link', { name: 'Reset your password' }).click();
    const article = p.getByRole('article', { name: 'Reset your password' });
    await article.getByRole('heading', { name: 'Steps' }).waitFor();
    await article.locator('strong', { hasText: 'Reset' }).waitFor();
    expect(await p.getByRole('textbox').count()).toBe(0);
    for (const name of ['Save', 'Publish', 'Archive', 'Delete']) {
      expect(await p.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    expect(await p.getByRole('button', { name: /^Translate to/ }).count()).toBe(0);
    expect(await seriousAxeViolations(p)).toEqual([]);
    await p.screenshot({ path: shot('article-agent-1440'), fullPage: true });
    await p.setViewportSize({ width: 390, height: 844 });
    await p.reload();
    await article.getByRole('heading', { name: 'Steps' }).waitFor();
    await p.screenshot({ path: shot('article-agent-390'), fullPage: true });
    await p.setViewportSize({ width: 1440, height: 900 });
    await p.goto(`${service}/kb/categories`);
    await p.getByRole('list', { name: 'Categories' }).getByText('Accounts').waitFor();
    expect(await p.getByRole('button', { name: 'Add category' }).count()).toBe(0);
    expect(await p.getByRole('button', { name: /^Rename|^Delete|^Move/ }).count()).toBe(0);
    // The server refuses an agent's write all the same.
    const login = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: agent.email, password: agent.password })
      .expect(200);
    await request(app.url)
      .patch(`/api/agent/kb/articles/${articleId}`)
      .set('Authorization', `Bearer ${login.body.token as string}`)
      .send({ title: 'Hacked' })
      .expect(403);
  });

  step('the site editor turns the help center on and links to it', async () => {
    const p = await logIn(ownerLogin(), `/settings/sites/${owner.site.id}`);
    const form = p.getByRole('form', { name: 'Help center' });
    await form.waitFor();
    expect(await form.getByRole('link', { name: /\/help\// }).count()).toBe(0);
    await form.getByRole('checkbox', { name: 'German' }).check();
    await form.getByRole('textbox', { name: 'Title' }).fill('Acme Help');
    await form.getByRole('combobox', { name: 'Opens in' }).selectOption({ label: 'German' });
    await form.getByRole('switch', { name: 'Publish the help center' }).check();
    await form.getByRole('button', { name: 'Save help center' }).click();
    const link = form.getByRole('link', { name: `${service}/help/${owner.site.widget_key}/` });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${service}/help/${owner.site.widget_key}/`);
    const site = await request(app.url)
      .get(`/api/agent/sites/${owner.site.id}`)
      .set(asOwner())
      .expect(200);
    expect(site.body.data.help_center).toMatchObject({
      enabled: true,
      title: 'Acme Help',
      locales: ['en', 'de'],
      default_locale: 'de',
    });
    expect(await seriousAxeViolations(p)).toEqual([]);
    await form.screenshot({ path: shot('help-center-settings-1440') });
    // Off again: the link goes.
    await form.getByRole('switch', { name: 'Publish the help center' }).uncheck();
    await form.getByRole('button', { name: 'Save help center' }).click();
    await link.waitFor({ state: 'detached' });
  });
});

async function expectEventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    try {
      expect(value).toEqual(expected);
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
