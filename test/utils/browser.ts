import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { localServerAvailable } from './local-server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `it`, for a test whose failure leaves a screenshot of the page it was on behind, in the OS temp
 * directory (`<prefix>-<test name>.png`), to look at.
 */
export function screenshotOnFailure(prefix: string, page: () => Page | undefined) {
  return (name: string, body: () => Promise<void>) =>
    it(name, async () => {
      try {
        await body();
      } catch (error) {
        const file = path.join(os.tmpdir(), `${prefix}-${name.replace(/\W+/g, '-')}.png`);
        await page()
          ?.screenshot({ path: file })
          .catch(() => undefined);
        throw error;
      }
    });
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

/**
 * Debian's Chromium, headless, with a fresh profile of its own (never a downloaded browser), and
 * without the background traffic this closed network would refuse.
 */
export async function launchBrowser(
  options: { viewport?: { width: number; height: number }; isMobile?: boolean } = {},
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
  });
  return {
    context,
    newPage: () => context.newPage(),
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

/** axe-core over the page (or a frame): the serious and critical violations. */
export async function seriousAxeViolations(
  page: Pick<Page, 'addScriptTag' | 'evaluate'>,
): Promise<AxeViolation[]> {
  // Evaluated, not added as a <script>: the dashboard's CSP (rightly) refuses inline scripts.
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run();
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
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
    const page = pages[(req.url ?? '/').split('?')[0]];
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
