import os from 'node:os';
import type { Page } from 'playwright-core';
import { addMember, type Registered } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();

/**
 * Install stays reachable after the first chat (issue 26): Settings → Install has the snippet,
 * the demo page and guides for plain HTML, WordPress, Shopify and React; the inbox and the site
 * editor link to it.
 */
describeIfBrowser('the dashboard: installing the widget, after the first chat too', () => {
  let suite: DashboardSuite;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let agent: { email: string; password: string };
  let page: Page | undefined;
  const step = screenshotOnFailure('dashboard-install', () => page);

  beforeAll(async () => {
    ({ browser, service, owner } = suite = await startDashboardSuite({ loggedIn: true }));
    agent = await addMember(suite.app.url, owner.token, 'agent');
    // The first chat has come: the inbox no longer opens on the install card.
    await startWidgetChat(suite.app.url, owner.site, ['Hello, anyone there?']);
  });

  afterAll(() => suite?.stop());

  step('the inbox links to the install guide once chats have come', async () => {
    page = await browser.newPage();
    await page.goto(`${service}/inbox`);
    await page.getByText('Pick a conversation').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('heading', { name: 'Install the chat widget' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Install the chat widget on your website' }).click();
    await page.getByRole('heading', { name: 'Install the widget', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/install');
  });

  step('Settings → Install: the snippet, the demo page and four guides', async () => {
    const nav = page!.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('link', { name: 'Install' }).getAttribute('aria-current')).toBe(
      'page',
    );
    const key = owner.site.widget_key;
    const snippet = page!.getByRole('region', { name: 'Snippet for Acme' });
    await snippet
      .getByText(`<script async src="${service}/widget.js" data-widget-key="${key}"></script>`)
      .waitFor();
    await snippet.getByRole('button', { name: 'Copy Install snippet' }).waitFor();
    expect(
      await snippet.getByRole('link', { name: 'Open the demo page' }).getAttribute('href'),
    ).toBe(`/demo?widget_key=${encodeURIComponent(key)}`);
    const guides = page!.getByRole('region', { name: 'Step by step' });
    const panel = (name: string) => guides.getByRole('tabpanel', { name });
    expect(await panel('Plain HTML').textContent()).toContain('before the closing </body> tag');
    expect(await seriousAxeViolations(page!)).toEqual([]);
    const expected: [string, string][] = [
      ['WordPress', 'WPCode – Insert Headers and Footers'],
      ['Shopify', 'layout/theme.liquid'],
      ['React', `script.dataset.widgetKey = '${key}';`],
    ];
    for (const [tab, text] of expected) {
      await guides.getByRole('tab', { name: tab }).click();
      await panel(tab).getByText(text, { exact: false }).first().waitFor();
      expect(await seriousAxeViolations(page!)).toEqual([]);
    }
    for (const width of [1440, 390]) {
      await page!.setViewportSize({ width, height: 900 });
      await page!.screenshot({
        path: `${SHOTS}/settings-install-owner-${width}.png`,
        fullPage: true,
      });
    }
    await page!.setViewportSize({ width: 1440, height: 900 });
  });

  step('the site editor links to the guides of its site', async () => {
    await page!.goto(`${service}/settings/sites/${owner.site.id}`);
    await page!
      .getByRole('region', { name: 'Install the widget' })
      .getByRole('link', { name: 'Guides for HTML, WordPress, Shopify and React' })
      .click();
    await page!.getByRole('region', { name: 'Snippet for Acme' }).waitFor();
    expect(new URL(page!.url()).search).toBe(`?site=${owner.site.id}`);
  });

  step('an agent is told the install page is for owners and admins', async () => {
    await suite.logIn(agent);
    await page!.goto(`${service}/settings/install`);
    await page!.getByRole('heading', { name: 'Only owners and admins', level: 2 }).waitFor();
    const nav = page!.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('link', { name: 'Install' }).count()).toBe(0);
    expect(await seriousAxeViolations(page!)).toEqual([]);
    await page!.screenshot({ path: `${SHOTS}/settings-install-agent-1440.png` });
  });
});
