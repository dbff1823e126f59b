import type { Page } from 'playwright-core';
import { addMember } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import { eventually } from '../utils/app-process';
import { browserAvailable, seriousAxeViolations } from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';
import { startRequestLog, startTestWebsite, type TestWebsite } from '../utils/test-website';
import request from 'supertest';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';

/**
 * Settings → Answer bot (issue 30): the bot's settings, the import, bot replies, the report; on a
 * server without a language model, generated answers say they are off.
 */
describeIfBrowser('dashboard answer bot', () => {
  let suite: DashboardSuite;
  let website: TestWebsite;
  let offSite: TestWebsite;
  let page: Page;

  beforeAll(async () => {
    offSite = await startRequestLog();
    website = await startTestWebsite({
      offSite: offSite.url,
      loopbackLink: `${offSite.url}/internal`,
    });
    suite = await startDashboardSuite({
      env: {
        CRAWL_ALLOWED_HOSTS: `127.0.0.1:${website.port}`,
        CRAWL_DELAY_MS: '10',
        CRAWL_PAGE_TIMEOUT_MS: '1500',
      },
      loggedIn: true,
    });
    await request(suite.app.url)
      .patch(`/api/agent/sites/${suite.owner.site.id}`)
      .set('Authorization', `Bearer ${suite.owner.token}`)
      .send({ allowed_domains: [`127.0.0.1:${website.port}`] })
      .expect(200);
    page = await suite.browser.newPage();
  });

  afterAll(async () => {
    await suite?.stop();
    await Promise.all([website?.close(), offSite?.close()]);
  });

  const open = async () => {
    await page.goto(`${suite.service}/settings`);
    await page.getByRole('link', { name: 'Answer bot' }).click();
    await page.getByRole('heading', { name: 'Answer bot', level: 2 }).waitFor();
  };

  it('as owner: turns the bot on, adds, edits and deletes bot replies, imports the site and reads the report', async () => {
    await open();
    // No LLM_* variables on this server: generated answers say so, their controls disabled.
    const generative = page.getByRole('region', { name: 'Generated answers' });
    await generative.getByText('Generated answers are off on this server').waitFor();
    await generative
      .getByText(
        'This server has no language model set up. To turn generated answers on, an operator sets the variables LLM_BASE_URL, LLM_API_KEY and LLM_MODEL.',
      )
      .waitFor();
    await expect(
      generative
        .getByRole('switch', { name: 'Generate answers with the language model' })
        .isDisabled(),
    ).resolves.toBe(true);
    await expect(generative.getByRole('textbox', { name: 'Guidance' }).isDisabled()).resolves.toBe(
      true,
    );
    expect(await generative.getByRole('button', { name: 'Save generated answers' }).count()).toBe(
      0,
    );
    await page
      .getByRole('region', { name: 'Answer log' })
      .getByText('No generated answers yet.')
      .waitFor();
    const settings = page.getByRole('region', { name: 'Bot settings' });
    await settings.getByRole('switch', { name: 'Answer visitors automatically' }).check();
    await settings
      .getByRole('textbox', { name: 'Handoff message' })
      .fill('Our team takes it from here.');
    await settings.getByRole('button', { name: 'Save bot settings' }).click();
    await page.getByText('Saved').first().waitFor();
    const saved = await request(suite.app.url)
      .get(`/api/agent/sites/${suite.owner.site.id}/answer-bot`)
      .set('Authorization', `Bearer ${suite.owner.token}`)
      .expect(200);
    expect(saved.body.data).toMatchObject({
      enabled: true,
      handoff_message: 'Our team takes it from here.',
    });

    await startWidgetChat(suite.app.url, suite.owner.site, ['Do you sell gift cards?']);

    // A bot reply: added, found by search, edited, switched off, deleted.
    const replies = page.getByRole('region', { name: 'Bot replies' });
    const add = replies.getByRole('form', { name: 'Add bot reply' });
    await add.getByRole('textbox', { name: 'Question' }).fill('Do you ship abroad?');
    await add.getByRole('textbox', { name: 'Answer' }).fill('Yes, to 40 countries.');
    await add.getByRole('button', { name: 'Add bot reply' }).click();
    await replies.getByRole('cell', { name: 'Do you ship abroad?', exact: true }).waitFor();
    await add.getByRole('textbox', { name: 'Question' }).fill('How long does delivery take?');
    await add.getByRole('textbox', { name: 'Answer' }).fill('Two to five days.');
    await add.getByRole('button', { name: 'Add bot reply' }).click();
    await replies
      .getByRole('cell', { name: 'How long does delivery take?', exact: true })
      .waitFor();

    await replies.getByRole('searchbox', { name: 'Search bot replies' }).fill('abroad');
    await expect(
      replies.getByRole('cell', { name: 'How long does delivery take?', exact: true }).waitFor({
        state: 'detached',
      }),
    ).resolves.toBeUndefined();
    const row = replies.getByRole('row', { name: /Do you ship abroad/ });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit bot reply' });
    await dialog.getByRole('textbox', { name: 'Answer' }).fill('Yes, to 41 countries.');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await replies.getByText('Yes, to 41 countries.').waitFor();
    const inUse = replies.getByRole('switch', { name: 'Use the reply “Do you ship abroad?”' });
    await inUse.click();
    await eventually(async () => !(await inUse.isChecked()));
    const list = async () =>
      (
        await request(suite.app.url)
          .get(`/api/agent/bot-replies?site_id=${suite.owner.site.id}`)
          .set('Authorization', `Bearer ${suite.owner.token}`)
          .expect(200)
      ).body.data as { question: string; answer: string; enabled: boolean }[];
    await eventually(async () => {
      const reply = (await list()).find((r) => r.question === 'Do you ship abroad?');
      return reply?.answer === 'Yes, to 41 countries.' && !reply.enabled;
    });
    await replies.getByRole('searchbox', { name: 'Search bot replies' }).fill('');
    await replies
      .getByRole('row', { name: /How long does delivery take/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('dialog', { name: 'Delete this bot reply?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await replies
      .getByRole('cell', { name: 'How long does delivery take?', exact: true })
      .waitFor({ state: 'detached' });
    expect((await list()).map((r) => r.question)).toEqual(['Do you ship abroad?']);

    // The import: a few pages of the local website, to its end.
    const importer = page.getByRole('region', { name: 'Import content' });
    await importer.getByRole('textbox', { name: 'Start address' }).fill(`${website.url}/docs/1`);
    await importer.getByRole('textbox', { name: 'Pages at most' }).fill('3');
    await importer.getByLabel('Only pages under').fill('/docs/');
    await importer.getByLabel('Only pages under').press('Enter');
    await importer.getByRole('button', { name: 'Start import' }).click();
    await importer.getByText('Status: Completed').waitFor({ timeout: 60_000 });
    await importer.getByRole('progressbar', { name: 'Import progress' }).waitFor();
    const done = (
      await request(suite.app.url)
        .get(`/api/agent/sites/${suite.owner.site.id}/content-import`)
        .set('Authorization', `Bearer ${suite.owner.token}`)
        .expect(200)
    ).body.data as { summary: { pages: number; kb_articles: number; bot_replies: number } };
    expect(done.summary.pages).toBeGreaterThan(0);
    expect(done.summary.kb_articles).toBeGreaterThan(0);
    await importer
      .getByText(
        `Pages read: ${done.summary.pages} · Help articles written: ${done.summary.kb_articles} · Bot replies written: ${done.summary.bot_replies}`,
      )
      .waitFor();

    // A visitor asked what no reply answers: the report lists it.
    await page.reload();
    const report = page.getByRole('region', { name: 'The bot’s report' });
    await report.getByRole('cell', { name: 'Do you sell gift cards?' }).waitFor();
    await report.getByText('Questions', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/answer-bot-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/answer-bot-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('as agent: reads the bot, its replies and the report, and cannot change them', async () => {
    const agent = await addMember(suite.app.url, suite.owner.token, 'agent');
    await suite.logIn(agent);
    await open();
    await page.getByText('Only owners and admins can change the answer bot.').waitFor();
    const settings = page.getByRole('region', { name: 'Bot settings' });
    await expect(
      settings.getByRole('switch', { name: 'Answer visitors automatically' }).isChecked(),
    ).resolves.toBe(true);
    await expect(
      settings.getByRole('switch', { name: 'Answer visitors automatically' }).isDisabled(),
    ).resolves.toBe(true);
    expect(await settings.getByRole('button', { name: 'Save bot settings' }).count()).toBe(0);
    const replies = page.getByRole('region', { name: 'Bot replies' });
    await replies.getByRole('cell', { name: 'Do you ship abroad?', exact: true }).waitFor();
    expect(await replies.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await replies.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await replies.getByRole('form', { name: 'Add bot reply' }).count()).toBe(0);
    const importer = page.getByRole('region', { name: 'Import content' });
    await importer.getByText('Status: Completed').waitFor();
    expect(await importer.getByRole('button', { name: 'Start import' }).count()).toBe(0);
    const report = page.getByRole('region', { name: 'The bot’s report' });
    await report.getByRole('cell', { name: 'Do you sell gift cards?' }).waitFor();
    await report.getByText('Answered', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
