import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { addMember, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  launchBrowser,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  openChat,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';

/** Settings → Audit log as an owner uses it, and what an agent sees at its address. */
describeIfBrowser('dashboard audit log', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page;

  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });

  async function logIn(target: Page, email: string, password: string) {
    const login = await target.request.post(`${service}/api/agent/auth/login`, {
      data: { email, password },
    });
    expect(login.status()).toBe(200);
  }

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite());
    await request(app.url)
      .post('/api/agent/api-keys')
      .set(asOwner())
      .send({ name: 'CRM sync', abilities: ['tickets:read'] })
      .expect(201);
    await request(app.url)
      .patch(`/api/agent/sites/${owner.site.id}`)
      .set(asOwner())
      .send({ name: 'Acme Help' })
      .expect(200);
    page = await browser.newPage();
    await logIn(page, owner.user.email, owner.password);
  });

  afterAll(() => suite?.stop());

  it('lists what was done, by whom, filters it, and downloads the same rows as CSV', async () => {
    await page.goto(`${service}/settings`);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
    await page.getByRole('cell', { name: 'api_key.created' }).waitFor();
    await page.getByRole('cell', { name: 'site.updated' }).waitFor();
    await page.getByRole('cell', { name: 'CRM sync', exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/audit-log-1440.png`, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    const filters = page.getByRole('form', { name: 'Filter the audit log' });
    await filters.getByRole('textbox', { name: 'Action' }).fill('site.updated');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 entries').waitFor();
    expect(await page.getByRole('cell', { name: 'api_key.created' }).count()).toBe(0);
    await page.getByRole('cell', { name: /Acme → Acme Help/ }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const file = await download.path();
    const lines = readFileSync(file, 'utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',site.updated,');

    await filters.getByRole('textbox', { name: 'Action' }).fill('not an action');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('An action looks like api_key.created.').waitFor();
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('cell', { name: 'api_key.created' }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/audit-log-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('is not an agent’s: no link, and its address says whose it is', async () => {
    const agent = await addMember(app.url, owner.token, 'agent');
    const agentPage = await browser.newPage();
    try {
      // Its own cookie jar would be shared: a second context is not needed, the login replaces it.
      await logIn(agentPage, agent.email, agent.password);
      await agentPage.goto(`${service}/settings/audit-log`);
      await agentPage.getByRole('heading', { name: 'Only owners and admins' }).waitFor();
      expect(await agentPage.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
      expect(await agentPage.getByRole('cell', { name: 'api_key.created' }).count()).toBe(0);
    } finally {
      await agentPage.close();
      // The shared cookie jar now holds the agent's session: the owner's comes back.
      await logIn(page, owner.user.email, owner.password);
    }
  });
});

/**
 * The privacy actions as an owner uses them: retention and consent in the site editor, the
 * widget asking for consent before the first message, and the visitor panel's export and
 * erasure (confirmed), which the visitor's open widget is told of.
 */
describeIfBrowser('dashboard and widget privacy', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page;

  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite({ loggedIn: true }));
    await request(app.url)
      .patch('/api/agent/presence')
      .set(asOwner())
      .send({ status: 'online' })
      .expect(200);
    page = await browser.newPage();
  });

  afterAll(() => suite?.stop());

  it('sets retention and consent, the widget asks first, and the visitor is exported and erased', async () => {
    await page.goto(`${service}/settings/sites/${owner.site.id}`);
    const form = page.getByRole('form', { name: 'Privacy' });
    await form.waitFor();
    const days = form.getByRole('textbox', { name: 'Keep closed conversations for (days)' });
    await days.fill('ten');
    await form.getByRole('button', { name: 'Save privacy settings' }).click();
    await form.getByText('Enter a whole number of days, or leave it empty.').waitFor();
    await days.fill('30');
    await form
      .getByRole('switch', { name: 'Ask visitors to agree before their first message' })
      .check();
    await form
      .getByRole('textbox', { name: 'What visitors agree to' })
      .fill('We keep this chat for 30 days.');
    await form
      .getByRole('textbox', { name: 'Privacy policy address' })
      .fill('https://shop.example.test/privacy');
    await form.getByRole('button', { name: 'Save privacy settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Your changes were saved.' }).waitFor();
    const site = await request(app.url)
      .get(`/api/agent/sites/${owner.site.id}`)
      .set(asOwner())
      .expect(200);
    expect(site.body.data.retention_days).toBe(30);
    expect(site.body.data.widget_settings.consent).toEqual({
      enabled: true,
      text: 'We keep this chat for 30 days.',
      privacy_url: 'https://shop.example.test/privacy',
    });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/site-privacy-1440.png`, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The widget on the customer's site asks before the first message.
    const host = await startHostSite({ '/': hostPage(service, owner.site.widget_key) });
    const shop = await browser.newPage();
    try {
      await shop.setViewportSize({ width: 390, height: 844 });
      await shop.goto(host.url);
      await openChat(shop);
      const frame = shop.frameLocator('iframe[title="Chat"]');
      await frame.getByRole('heading', { name: 'Before you write' }).waitFor({ timeout: 15_000 });
      await frame.getByText('We keep this chat for 30 days.').waitFor();
      expect(await frame.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe(
        'https://shop.example.test/privacy',
      );
      expect(await frame.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
      await shop.screenshot({ path: `${SHOTS}/widget-consent-390.png` });
      await frame.getByRole('button', { name: 'I agree' }).click();
      const message = frame.getByRole('textbox', { name: 'Message' });
      await message.fill('My order 77 never came');
      await message.press('Enter');
      const conversation = await eventually(async () => {
        const found = await request(app.url)
          .get('/api/agent/conversations')
          .set(asOwner())
          .expect(200);
        return (found.body.data as { id: number }[])[0];
      });

      // The owner exports the visitor, then erases them; the widget is told.
      await page.goto(`${service}/inbox/${conversation.id}`);
      const exportLink = page.getByRole('link', { name: 'Export data' });
      await exportLink.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
      const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
      expect(exported.data.conversations[0].messages[0].body).toBe('My order 77 never came');
      expect(exported.data.consent.consented_at).not.toBeNull();
      await page.screenshot({ path: `${SHOTS}/visitor-privacy-1440.png` });
      expect(await seriousAxeViolations(page)).toEqual([]);

      // An agent sees the visitor panel, not its privacy actions.
      const agent = await addMember(app.url, owner.token, 'agent');
      const agentBrowser = await launchBrowser();
      try {
        const agentPage = await agentBrowser.newPage();
        const agentLogin = await agentPage.request.post(`${service}/api/agent/auth/login`, {
          data: { email: agent.email, password: agent.password },
        });
        expect(agentLogin.status()).toBe(200);
        await agentPage.goto(`${service}/inbox/${conversation.id}`);
        await agentPage.getByRole('region', { name: 'Appointments' }).waitFor();
        expect(await agentPage.getByRole('region', { name: 'Privacy' }).count()).toBe(0);
        expect(await agentPage.getByRole('link', { name: 'Export data' }).count()).toBe(0);
        expect(await agentPage.getByRole('button', { name: 'Erase visitor' }).count()).toBe(0);
      } finally {
        await agentBrowser.close();
      }

      await page.getByRole('button', { name: 'Erase visitor' }).click();
      const dialog = page.getByRole('dialog', { name: 'Erase this visitor?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await frame.getByText('Your data was erased').count()).toBe(0);
      await page.getByRole('button', { name: 'Erase visitor' }).click();
      await dialog.getByRole('button', { name: 'Erase for good' }).click();
      await page.getByRole('status').filter({ hasText: 'The visitor was erased.' }).waitFor();
      await frame.getByText('Your data was erased at your request. This chat has ended.').waitFor();
      await shop.screenshot({ path: `${SHOTS}/widget-erased-390.png` });
      const messages = await request(app.url)
        .get(`/api/agent/conversations/${conversation.id}/messages`)
        .set(asOwner());
      expect(JSON.stringify(messages.body)).not.toContain('My order 77');
    } finally {
      await shop.close();
      await host.close();
    }
  });
});
