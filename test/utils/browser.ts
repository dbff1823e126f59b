import { addToError } from './error-context';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { localServerAvailable } from './local-server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `it`, for a test whose failure leaves a screenshot of the page it was on behind, in the OS temp
 * directory (`<prefix>-<test name>.png`), to look at, and adds to the failure's message what each
 * frame of the page showed and what it logged (see `watchConsole`): a failure under CI load then
 * says which state the page was in.
 */
export function screenshotOnFailure(prefix: string, page: () => Page | undefined) {
  return (name: string, body: () => Promise<void>, timeout?: number) =>
    it(
      name,
      async () => {
        lastClosed = undefined;
        try {
          await body();
        } catch (error) {
          const current = page();
          let seen = closedPageText();
          if (current && !current.isClosed()) {
            const file = path.join(os.tmpdir(), `${prefix}-${name.replace(/\W+/g, '-')}.png`);
            await current.screenshot({ path: file }).catch(() => undefined);
            seen = await describePage(current);
          }
          if (seen && error instanceof Error) addToError(error, seen);
          throw error;
        }
      },
      timeout,
    );
}

const consoleLogs = new WeakMap<Page, string[]>();
/** What the last page closed by `closePage` showed, for a failure found after it closed. */
let lastClosed: string | undefined;

function closedPageText(): string | undefined {
  return lastClosed;
}

/** Closes the page, first keeping what it showed for `screenshotOnFailure`'s message. */
export async function closePage(page: Page): Promise<void> {
  if (page.isClosed()) return;
  lastClosed = await describePage(page);
  await page.close();
}

/**
 * Keeps the page's console messages and script errors (its frames' too) for `describePage`; once
 * per page (`launchBrowser`'s pages are watched from the start).
 */
export function watchConsole(page: Page): void {
  if (consoleLogs.has(page)) return;
  const lines: string[] = [];
  consoleLogs.set(page, lines);
  page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => lines.push(`pageerror: ${String(error)}`));
  // Which address a "Failed to load resource" line meant, and every refused API call.
  page.on('response', (response) => {
    if (response.status() >= 400)
      lines.push(`response: ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  // A frame that loads again loses what the visitor typed: say when the widget's frame did.
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) lines.push(`frame loaded: ${frame.url()}`);
  });
  page.on('framedetached', (frame) => lines.push(`frame removed: ${frame.url()}`));
  page.on('requestfailed', (request) =>
    lines.push(
      `request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? ''})`,
    ),
  );
}

/** The text each frame of the page shows, and its console (when watched): for failure messages. */
export async function describePage(page: Page): Promise<string> {
  const parts: string[] = [];
  for (const frame of page.frames()) {
    const text = await frame
      .evaluate(() => {
        const doc = (
          globalThis as unknown as {
            document: {
              body?: { innerText: string };
              hasFocus(): boolean;
              activeElement: {
                tagName: string;
                id: string;
                getAttribute(n: string): string;
              } | null;
            };
          }
        ).document;
        const active = doc.activeElement;
        const focus = `(focus: ${doc.hasFocus() ? 'here' : 'elsewhere'}, on ${active ? `${active.tagName}#${active.id} ${active.getAttribute('aria-label') ?? ''}` : 'nothing'})`;
        const fields = [
          ...(
            doc as unknown as {
              querySelectorAll(s: string): Iterable<{ id: string; value: string }>;
            }
          ).querySelectorAll('input, textarea'),
        ]
          .map((field) => `${field.id}=${JSON.stringify(field.value)}`)
          .join(', ');
        return `${focus}\n(fields: ${fields || 'none'})\n${doc.body?.innerText ?? ''}`;
      })
      .catch((error: unknown) => `(unreadable: ${String(error)})`);
    parts.push(`What ${frame.url()} showed:\n${text.trim().slice(0, 2000)}`);
  }
  const logs = consoleLogs.get(page);
  if (logs?.length) parts.push(`Its console:\n${logs.slice(-30).join('\n')}`);
  return parts.join('\n\n');
}

/** A page's focused element, through shadow roots (the widget's launcher lives in one). Plain script. */
const DEEP_ACTIVE = `() => {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active;
}`;

/** What holds the host page's focus, for the log of a retried `typeInto`. */
function hostFocus(page: Page): Promise<string> {
  return page
    .evaluate<string>(
      `(() => { const a = (${DEEP_ACTIVE})(); return a ? (a.tagName.toLowerCase() + ' ' + (a.getAttribute('aria-label') || a.getAttribute('title') || '')).trim() : 'nothing'; })()`,
    )
    .catch((error: unknown) => `(unreadable: ${String(error)})`);
}

/**
 * Types into a field of the widget's cross-origin frame as a visitor does: a click first, then
 * the text, then a look at what the field holds. `fill` sends its text to wherever the browser's
 * focus is, and the click that moves that focus into an out-of-process frame reaches the browser
 * process later than it reaches the frame: under load the frame already shows the field focused
 * while the browser still sends keys to the host page, where they are lost (seen in CI: a search
 * box focused and empty, a form sent with its fields empty). A visitor's own keys only come after
 * the focus has moved, so the text is typed again when the field does not hold it; each such
 * retry is noted in the page's log (`describePage`), and a fifth miss fails with what it held.
 */
export async function typeInto(field: Locator, text: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await field.click();
    await field.fill(text);
    const held = await field.inputValue();
    if (held === text) return;
    const note = `typeInto: the field held ${JSON.stringify(held)} after typing ${JSON.stringify(text)} (attempt ${attempt})`;
    if (attempt === 5) throw new Error(note);
    const page = field.page();
    consoleLogs.get(page)?.push(`${note}; the host page's focus was on ${await hostFocus(page)}`);
    // The browser learns of the frame's focus by a message of its own, which a loaded machine
    // delivers late (CI: three misses in a row within a fraction of a second), and a frame that
    // already holds its focus sends no new one when clicked (CI: five misses over 2.5 s, the
    // field focused and empty each time). As a person whose keys went nowhere, the focus leaves
    // the chat (to the host page) and the next click brings it back, after a longer wait each time.
    await page.evaluate(`(${DEEP_ACTIVE})()?.blur()`);
    await page.waitForTimeout(250 * attempt);
  }
}

/**
 * Opens the chat from the launcher as a visitor does, and waits until the launcher says it is open
 * (`aria-expanded`). A click that left it closed is noted in the page's log (with the launcher
 * trace of `launchBrowser`, which says whether the click toggled it twice or the frame asked to
 * close) and made once more: the tests that use this are about what follows the opening.
 */
export async function openChat(page: Page, timeout = 15_000): Promise<void> {
  const open = page.locator('[data-support-chat] button[aria-expanded="true"]');
  for (let attempt = 1; ; attempt++) {
    await page.getByRole('button', { name: 'Open chat' }).click({ timeout });
    try {
      await open.waitFor({ state: 'attached', timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 2) throw error;
      consoleLogs.get(page)?.push('openChat: the launcher was closed 5 s after the click');
    }
  }
}

/** Whether the browser tests can run here (CI installs Debian's chromium: see .ci/run). */
export function browserAvailable(): boolean {
  return localServerAvailable({
    env: 'CHROMIUM_PATH',
    binaries: ['chromium'],
    package: 'chromium',
    tests: 'the browser tests',
  });
}

export interface TestBrowser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Runs in every page of a test browser: see `launchBrowser`. Plain script, no imports. */
const WIDGET_TRACE = `(() => {
  if (window.top !== window) return;
  const launcher = (event) =>
    event.composedPath().some((node) => node.hasAttribute && node.hasAttribute('data-support-chat'));
  addEventListener('click', (event) => {
    if (!launcher(event)) return;
    const button = event.composedPath().find((node) => node.tagName === 'BUTTON');
    const before = button && button.getAttribute('aria-expanded');
    setTimeout(() => console.debug('widget trace: launcher click, expanded ' + before + ' -> ' +
      (button && button.getAttribute('aria-expanded'))));
  }, true);
  addEventListener('message', (event) => {
    const type = event.data && event.data.type;
    if (type === 'close' || type === 'hello' || type === 'bye') console.debug('widget trace: frame says ' + type);
  });
})();`;

/**
 * Debian's Chromium, headless, with a fresh profile of its own (never a downloaded browser), and
 * without the background traffic this closed network would refuse.
 */
export async function launchBrowser(
  options: {
    viewport?: { width: number; height: number };
    isMobile?: boolean;
    /** False: pages run no script of their own (what works without JavaScript). */
    javaScriptEnabled?: boolean;
    /** The browser's time zone (default the machine's). */
    timezoneId?: string;
  } = {},
): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'scs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
    viewport: options.viewport ?? { width: 1280, height: 800 },
    isMobile: options.isMobile,
    hasTouch: options.isMobile,
    javaScriptEnabled: options.javaScriptEnabled,
    timezoneId: options.timezoneId,
  });
  // For failure messages: what became of each click on the widget's launcher, and every request
  // of the widget's frame to close (each a console line, which `watchConsole` keeps).
  await context.addInitScript(WIDGET_TRACE);
  return {
    context,
    // Every page is watched: a failure says what its frames logged and loaded.
    async newPage() {
      const page = await context.newPage();
      watchConsole(page);
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core over the page (or a frame): the serious and critical violations. `exclude` leaves out
 * elements another test owns (CSS selectors), such as the widget's launcher on a host page.
 */
/**
 * Resolves once nothing on the page is moving: the state a user reads, not a frame of a fade.
 * A dialog that has just opened is still fading in (Mantine starts its CSS transition two
 * animation frames after mounting, then runs it for 200 ms), and axe measures a half-transparent
 * button's text as too faint: stop 41's red run. So: let two frames pass, wait for every finite
 * animation or transition then running, and repeat until two frames start none. Endless ones (a
 * spinner, a pulsing presence dot) are not waited for.
 */
export async function transitionsSettled(page: Pick<Page, 'evaluate'>): Promise<void> {
  await page.evaluate(SETTLE);
}

// Page code, as strings: the tests are compiled without the DOM's types.
const TWO_FRAMES = `const twoFrames = () =>
    new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));`;

const SETTLE = `(async () => {
  ${TWO_FRAMES}
  // Bounded: a page that restarts a finite animation for ever is measured as it stands.
  for (let round = 0; round < 50; round++) {
    await twoFrames();
    const moving = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    if (moving.length === 0) return;
    await Promise.all(moving.map((a) => a.finished.catch(() => undefined)));
  }
})()`;

/**
 * Resolves once the page's layout has stopped moving: the controls (buttons, links, fields) keep
 * their places across three checks two animation frames apart. After a resize the page changes in
 * steps (a media query's render, then the rows of a wrapping toolbar reflowing), and a click
 * aimed at a button that moved a moment later lands on its container: seen in
 * `dashboard-day-screens` under CI load (the click hit the toolbar's DIV, the drawer never opened).
 * A person clicks what they see at rest; so does a test that waits for this first.
 */
export async function layoutSettled(page: Pick<Page, 'evaluate'>): Promise<void> {
  await page.evaluate(LAYOUT_SETTLED);
}

const LAYOUT_SETTLED = `(async () => {
  ${TWO_FRAMES}
  const places = () =>
    [...document.querySelectorAll('button, a, input, select, textarea, [role=button]')]
      .map((el) => { const r = el.getBoundingClientRect(); return r.x + ',' + r.y + ',' + r.width + ',' + r.height; })
      .join(';');
  let last = places();
  let still = 0;
  // Bounded: a page that moves for ever (an animation of its own) is taken as it stands.
  for (let round = 0; round < 100 && still < 3; round++) {
    await twoFrames();
    const now = places();
    still = now === last ? still + 1 : 0;
    last = now;
  }
})()`;

export async function seriousAxeViolations(
  page: Pick<Page, 'addScriptTag' | 'evaluate'>,
  exclude: string[] = [],
): Promise<AxeViolation[]> {
  await transitionsSettled(page);
  // Evaluated, not added as a <script>: the dashboard's CSP (rightly) refuses inline scripts.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async (excluded: string[]) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(context?: unknown): Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    const result = await axe.run(
      excluded.length ? { include: [['html']], exclude: excluded.map((s) => [s]) } : undefined,
    );
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  }, exclude);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A web server of its own port, standing in for a customer's website: the widget's host pages
 * come from another origin than the service, as on a real site.
 */
export async function startHostSite(
  pages: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const where = (req.url ?? '/').split('?')[0];
    // The browser asks every site for its icon; a 404 there would be a console error to read past.
    if (where === '/favicon.ico' && pages[where] === undefined) {
      res.writeHead(204).end();
      return;
    }
    const page = pages[where];
    res.writeHead(page === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // `localhost`, not 127.0.0.1: another origin than the service's even on the same host.
    url: `http://localhost:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A host page with the install snippet, as the dashboard shows it to the site owner. */
export function hostPage(serviceUrl: string, widgetKey: string, extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><main><h1>Shop</h1><p>Our products.</p></main>${extra}
<script async src="${serviceUrl}/widget.js" data-widget-key="${widgetKey}"></script>
</body></html>`;
}
