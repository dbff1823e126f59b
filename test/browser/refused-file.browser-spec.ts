import type { Page } from 'playwright-core';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, freePort, startApp } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  launchBrowser,
  screenshotOnFailure,
  seriousAxeViolations,
  startHostSite,
  type TestBrowser,
  openChat,
} from '../utils/browser';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const PROGRAM = {
  name: 'setup.exe',
  mimeType: 'application/octet-stream',
  buffer: Buffer.from('MZ\x90\x00 not a picture'),
};

/**
 * A file of a refused type (issue 26): the visitor and the agent each read one short sentence
 * naming the file, never the server's list of accepted types.
 */
describeIfBrowser('a refused file type, in one short sentence', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const step = screenshotOnFailure('refused-file', () => page);

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const port = await freePort();
    service = `http://127.0.0.1:${port}`;
    app = await startApp({ DATABASE_URL: databaseUrl, PORT: String(port), PUBLIC_URL: service });
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    owner = await registerOrganization(app.url, 'Acme Files');
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
  });

  step('in the widget', async () => {
    const host = await startHostSite({ '/': hostPage(service, owner.site.widget_key) });
    page = await browser.newPage();
    try {
      await page.goto(host.url);
      await openChat(page);
      const frame = page.frameLocator('iframe[title="Chat"]');
      await frame.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
      await frame.getByLabel('Attach a file').setInputFiles(PROGRAM);
      const alert = frame.getByRole('alert');
      await alert
        .filter({ hasText: 'setup.exe cannot be sent: this kind of file is not accepted.' })
        .waitFor();
      expect(await alert.textContent()).not.toMatch(/Accepted types/);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await page.close();
      page = undefined;
      await host.close();
    }
  });

  step('in the dashboard composer', async () => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, visitor_name: 'Fay Files' })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Can you open this?' })
      .expect(201);
    page = await browser.newPage();
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(owner.user.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: `Account menu for ${owner.user.name}` }).waitFor();
    await page.goto(`${service}/inbox/${session.conversation_id}`);
    await page.getByRole('heading', { name: 'Fay Files' }).waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach a file' }).click();
    await (await chooser).setFiles(PROGRAM);
    const alert = page
      .getByRole('alert')
      .filter({ hasText: 'setup.exe cannot be sent: this kind of file is not accepted.' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/Accepted types/);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
