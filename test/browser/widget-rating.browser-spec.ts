import os from 'node:os';
import type { Page } from 'playwright-core';
import type { Registered } from '../factories/identity';
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
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();

/**
 * The end-of-chat rating (issue 26): five stars that are a radio group named by its question,
 * each star named "1 star" to "5 stars", moved through with the arrow keys; no native circles.
 */
describeIfBrowser('the widget: the rating stars', () => {
  let suite: DashboardSuite;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const step = screenshotOnFailure('widget-rating', () => page);

  beforeAll(async () => {
    ({ browser, service, owner } = suite = await startDashboardSuite({
      viewport: { width: 390, height: 844 },
    }));
  });

  afterAll(() => suite?.stop());

  step('rates a finished chat with the keyboard, star by star', async () => {
    const site = await startHostSite({ '/': hostPage(service, owner.site.widget_key) });
    try {
      page = await browser.newPage();
      await page.goto(site.url);
      await openChat(page);
      const frame = page.frameLocator('iframe[title="Chat"]');
      await typeInto(frame.getByRole('textbox', { name: 'Message' }), 'Where is my parcel?');
      await frame.getByRole('button', { name: 'Send' }).click();
      await frame.getByRole('button', { name: 'End chat' }).click({ timeout: 15_000 });
      await frame
        .getByRole('alertdialog', { name: /End this chat\?/ })
        .getByRole('button', { name: 'Yes, end chat' })
        .click();

      const group = frame.getByRole('radiogroup', { name: 'How was this conversation?' });
      await group.waitFor({ timeout: 15_000 });
      const names = ['1 star', '2 stars', '3 stars', '4 stars', '5 stars'];
      const stars = group.getByRole('radio');
      expect(await stars.count()).toBe(5);
      for (const [index, name] of names.entries()) {
        expect(await stars.nth(index).getAttribute('aria-label')).toBe(name);
      }
      // Drawn as stars: the native circles are not seen (the radio is transparent over its star).
      const first = group.getByRole('radio', { name: '1 star', exact: true });
      expect(
        await first.evaluate(
          (input) =>
            (
              globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }
            ).getComputedStyle(input).opacity,
        ),
      ).toBe('0');
      expect(await group.locator('svg').count()).toBe(5);

      // The keyboard: one tab stop, arrows move the choice.
      await first.focus();
      await page.keyboard.press('Space');
      expect(await first.isChecked()).toBe(true);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const three = group.getByRole('radio', { name: '3 stars' });
      expect(await three.isChecked()).toBe(true);
      expect(
        await three.evaluate(
          (input) =>
            input ===
            (globalThis as unknown as { document: { activeElement: unknown } }).document
              .activeElement,
        ),
      ).toBe(true);
      await page.keyboard.press('ArrowLeft');
      expect(await group.getByRole('radio', { name: '2 stars' }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const four = group.getByRole('radio', { name: '4 stars' });
      expect(await four.isChecked()).toBe(true);
      // Four filled stars, one outlined.
      expect(await group.locator('label.on').count()).toBe(4);

      const widget = page.frames().find((f) => f.url().includes('/widget/'))!;
      expect(await seriousAxeViolations(widget)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/widget-rating-390.png` });

      await frame.getByRole('button', { name: 'Send rating' }).click();
      await frame.getByText('Thank you for your feedback!').waitFor();
    } finally {
      await site.close();
    }
  });
});
