import { registerOrganization } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  launchBrowser,
  startHostSite,
  type TestBrowser,
} from '../utils/browser';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

describeIfBrowser('the browser apps are served', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    app = await startApp({ DATABASE_URL: databaseUrl });
    // The browser talks to the service directly (the validating proxy carries no WebSocket).
    service = `http://127.0.0.1:${app.port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('draws the launcher on a page of another origin', async () => {
    const org = await registerOrganization(app.url);
    const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
    try {
      const page = await browser.newPage();
      await page.goto(site.url);
      await page.getByRole('button', { name: 'Open chat' }).waitFor({ timeout: 10_000 });
    } finally {
      await site.close();
    }
  });

  it('serves the dashboard to a browser navigating to any of its paths', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${service}/inbox`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toContain('text/html');
    await page.getByRole('main').waitFor({ timeout: 10_000 });
  });
});
