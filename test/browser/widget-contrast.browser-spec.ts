import os from 'node:os';
import type { Page } from 'playwright-core';
import type { Registered } from '../factories/identity';
import { eventually } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  screenshotOnFailure,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();
/** The widget's dark text (web/shared/contrast.ts DARK_TEXT, #0f172a) as computed styles say it. */
const DARK = 'rgb(15, 23, 42)';
const PALE = '#fde68a';
/** The page's own function (the tests are compiled without the DOM's types). */
type Styles = { getComputedStyle(element: unknown): { color: string; backgroundColor: string } };

/**
 * The widget's text on the brand colour is chosen for contrast (issue 26, WCAG AA 4.5:1): a pale
 * brand colour gets dark text in the launcher and the header, and the site editor warns, with
 * the ratio, when the chosen colour reads badly.
 */
describeIfBrowser('the widget: text colour chosen for contrast', () => {
  let suite: DashboardSuite;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const step = screenshotOnFailure('widget-contrast', () => page);

  beforeAll(async () => {
    ({ browser, service, owner } = suite = await startDashboardSuite({ loggedIn: true }));
  });

  afterAll(() => suite?.stop());

  step('the site editor names the text colour and warns about a pale brand colour', async () => {
    page = await browser.newPage();
    await page.goto(`${service}/settings/sites/${owner.site.id}`);
    const form = page.getByRole('form', { name: 'Widget look' });
    await form.waitFor();
    // The default blue: white text, no warning.
    await form
      .getByRole('status')
      .filter({ hasText: /^The widget writes white text on this colour \(contrast 5\.1:1\)\.$/ })
      .waitFor();
    const colour = form.getByRole('textbox', { name: 'Colour' });
    await colour.fill(PALE);
    // Mantine's picker, open while the field has the focus, has unnamed sliders (not focusable,
    // drawn for the mouse): closed, as the person moves on, before axe looks.
    await colour.blur();
    await eventually(async () => (await page!.getByRole('slider').count()) === 0);
    const note = form.getByRole('status').filter({ hasText: 'writes dark text' });
    await note.waitFor();
    expect(await note.textContent()).toContain('(contrast 14.');
    await note
      .getByText(
        /^On the widget's white background \(chips, borders, focus rings\) this colour reaches only 1\.\d:1, below the 4\.5:1 that WCAG AA asks for\./,
      )
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/site-editor-contrast-owner-${width}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await form.getByRole('button', { name: 'Save widget look' }).click();
    await page.getByRole('status').filter({ hasText: 'Your changes were saved.' }).waitFor();
  });

  step('a pale brand colour gets dark text in the launcher and the header', async () => {
    const site = await startHostSite({ '/': hostPage(service, owner.site.widget_key) });
    try {
      page = await browser.newPage();
      await page.goto(site.url);
      const launcher = page.getByRole('button', { name: 'Open chat' });
      await launcher.waitFor({ timeout: 15_000 });
      const style = (selector: typeof launcher) =>
        selector.evaluate((element) => {
          const computed = (globalThis as unknown as Styles).getComputedStyle(element);
          return { color: computed.color, background: computed.backgroundColor };
        });
      // The launcher takes the colour once the frame has told it (its `config`).
      await eventually(async () => (await style(launcher)).color === DARK, 15_000);
      expect(await style(launcher)).toEqual({ color: DARK, background: 'rgb(253, 230, 138)' });
      await launcher.click();
      const frame = page.frameLocator('iframe[title="Chat"]');
      // The chat's header (a <header> inside the dialog, so no banner role).
      const header = frame.locator('header.header');
      await header.waitFor({ timeout: 15_000 });
      expect(await style(header)).toEqual({ color: DARK, background: 'rgb(253, 230, 138)' });
      const widget = page.frames().find((f) => f.url().includes('/widget/'))!;
      expect(await seriousAxeViolations(widget)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/widget-pale-brand-1440.png` });
    } finally {
      await site.close();
    }
  });
});
