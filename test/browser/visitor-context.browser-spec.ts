import os from 'node:os';
import type { Page } from 'playwright-core';
import type { Pool } from 'pg';
import request from 'supertest';
import { type Registered } from '../factories/identity';
import { type AppProcess } from '../utils/app-process';
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
import { pool } from '../utils/database';
import { connect } from '../utils/sockets';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

// A single-page shop: a button moves to the pricing page without loading one.
const SPA = `<button type="button" id="go" onclick="history.pushState({}, '', '/pricing'); document.title = 'Pricing';">Pricing</button>`;

/**
 * The visitor's context in the agents' panel (issue 26): the page they are on, updated live as
 * they move, the pages seen, where they came from, browser and system, their local time, and the
 * custom fields by the site's labels.
 */
describeIfBrowser('the visitor panel: visitor context', () => {
  let suite: DashboardSuite;
  let db: Pool;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const step = screenshotOnFailure('visitor-context', () => page);

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      organization: 'Acme Context',
    }));
    db = pool(suite.databaseUrl);
    await request(app.url)
      .patch('/api/agent/presence')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ status: 'online' })
      .expect(200);
    await request(app.url)
      .patch(`/api/agent/sites/${owner.site.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({
        widget_settings: {
          pre_chat_form: {
            enabled: false,
            fields: [
              {
                key: 'company',
                type: 'text',
                label: 'Company name',
                required: false,
                builtin: false,
              },
            ],
          },
        },
      })
      .expect(200);
  });

  afterAll(async () => {
    await db?.end();
    await suite?.stop();
  });

  step(
    'shows where the visitor is, live, with browser, local time and labelled fields',
    async () => {
      const site = await startHostSite({ '/': hostPage(service, owner.site.widget_key, SPA) });
      const agent = await connect(service, '/agent', owner.token);
      const host = await browser.newPage();
      try {
        await host.goto(site.url, { referer: 'https://search.example/?q=shop' });
        await openChat(host);
        const frame = host.frameLocator('iframe[title="Chat"]');
        const box = frame.getByRole('textbox', { name: 'Message' });
        await box.waitFor({ timeout: 15_000 });
        await typeInto(box, 'Which plan fits a team of five?');
        await box.press('Enter');
        const sent = await agent.next<{ conversation_id: number }>('message.created');
        const visitorId = (
          await request(app.url)
            .get(`/api/agent/conversations/${sent.conversation_id}`)
            .set('Authorization', `Bearer ${owner.token}`)
            .expect(200)
        ).body.data.visitor.id as number;
        // The pre-chat answer as the form would have stored it.
        await db.query(
          `UPDATE visitors SET custom_fields = '{"company":"Initech"}' WHERE id = $1`,
          [visitorId],
        );
        const zone = await host.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);

        page = await browser.newPage();
        await page.goto(`${service}/login`);
        await page.getByLabel('Email', { exact: true }).fill(owner.user.email);
        await page.getByLabel('Password', { exact: true }).fill(owner.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
        await page.goto(`${service}/inbox/${sent.conversation_id}`);
        await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();

        const current = page.getByRole('region', { name: 'Current page' });
        await current.getByRole('link', { name: 'Shop' }).waitFor();
        await current.getByText(`${site.url}/`).waitFor();
        const context = page.getByRole('region', { name: 'Browser and location' });
        await context.getByText(/^Chrom/).waitFor();
        await context.getByText('Linux').waitFor();
        await context.getByText('https://search.example/?q=shop').waitFor();
        await context.getByText(new RegExp(`\\(${zone.replace('/', '\\/')}\\)$`)).waitFor();
        const fields = page.getByRole('region', { name: 'Custom fields' });
        await fields.getByText('Company name').waitFor();
        await fields.getByText('Initech').waitFor();
        expect(await fields.getByText('company', { exact: true }).count()).toBe(0);

        // The visitor moves on the single-page site: the panel follows without a reload.
        await host.getByRole('button', { name: 'Pricing' }).click();
        await current.getByRole('link', { name: 'Pricing' }).waitFor({ timeout: 15_000 });
        await current.getByText(`${site.url}/pricing`).waitFor();
        const seen = page.getByRole('region', { name: 'Pages seen' });
        await seen.getByRole('link', { name: 'Shop' }).waitFor();
        expect(await seriousAxeViolations(page)).toEqual([]);
        await page.screenshot({ path: `${os.tmpdir()}/visitor-context-owner-1440.png` });
      } finally {
        agent.close();
        await host.close();
        await site.close();
      }
    },
  );
});
