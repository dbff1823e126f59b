import type { Page } from 'playwright-core';
import request from 'supertest';
import { addMember } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import { eventually } from '../utils/app-process';
import { browserAvailable, seriousAxeViolations } from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';
import { startLanguageModel } from '../utils/language-model';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';

/**
 * Settings → Answer bot on a server with a language model (issue 30, DESIGN section 11): the
 * generated-answers settings and the answer log.
 */
describeIfBrowser('dashboard answer bot: generated answers and the answer log', () => {
  let suite: DashboardSuite;
  let model: Awaited<ReturnType<typeof startLanguageModel>>;
  let page: Page;

  const api = () => ({
    get: (url: string) =>
      request(suite.app.url).get(url).set('Authorization', `Bearer ${suite.owner.token}`),
    post: (url: string, body: object) =>
      request(suite.app.url)
        .post(url)
        .set('Authorization', `Bearer ${suite.owner.token}`)
        .send(body),
  });

  beforeAll(async () => {
    model = await startLanguageModel();
    suite = await startDashboardSuite({
      env: {
        LLM_BASE_URL: model.url,
        LLM_API_KEY: 'sk-test-key',
        LLM_MODEL: 'test-model',
        LLM_TIMEOUT_MS: '3000',
      },
      loggedIn: true,
    });
    await api()
      .post('/api/agent/bot-replies', {
        site_id: suite.owner.site.id,
        question: 'How do I reset my password?',
        answer: 'Click "Forgot password" on the login page.',
      })
      .expect(201);
    await api()
      .post('/api/agent/kb/articles', {
        site_id: suite.owner.site.id,
        title: 'Password and parcels',
        body: 'Your password can be reset from the login page. Parcels are insured; a lost parcel is replaced.',
        status: 'published',
      })
      .expect(201);
    page = await suite.browser.newPage();
  });

  afterAll(async () => {
    await suite?.stop();
    await model?.close();
  });

  const open = async () => {
    await page.goto(`${suite.service}/settings`);
    await page.getByRole('link', { name: 'Answer bot' }).click();
    await page.getByRole('heading', { name: 'Answer bot', level: 2 }).waitFor();
  };

  it('as owner: turns generation on with its guidance, topics and cap; a visitor’s question shows in the log with its mark, sources and feedback', async () => {
    await open();
    const log = page.getByRole('region', { name: 'Answer log' });
    await log.getByText('No generated answers yet.').waitFor();

    const settings = page.getByRole('region', { name: 'Bot settings' });
    await settings.getByRole('switch', { name: 'Answer visitors automatically' }).check();
    await settings.getByRole('button', { name: 'Save bot settings' }).click();
    await page.getByText('Saved').first().waitFor();

    const generative = page.getByRole('region', { name: 'Generated answers' });
    expect(await generative.getByText('Generated answers are off on this server').count()).toBe(0);
    await generative
      .getByRole('switch', { name: 'Generate answers with the language model' })
      .check();
    await generative.getByRole('textbox', { name: 'Guidance' }).fill('Be brief and friendly.');
    const topic = generative.getByRole('textbox', { name: 'New forbidden topic' });
    await topic.fill('legal advice');
    await topic.press('Enter');
    await topic.fill('refunds for damaged goods');
    await generative.getByRole('button', { name: 'Add topic' }).click();
    await topic.fill('pricing');
    await topic.press('Enter');
    await generative.getByRole('button', { name: 'Remove “legal advice”' }).click();
    const topics = generative.getByRole('list', { name: 'Forbidden topics' });
    await expect(topics.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      'refunds for damaged goods',
      'pricing',
    ]);
    await generative.getByRole('textbox', { name: 'Generated answers per day' }).fill('50');
    await generative.getByRole('button', { name: 'Save generated answers' }).click();
    const saved = await eventually(async () => {
      const body = (
        await api().get(`/api/agent/sites/${suite.owner.site.id}/answer-bot`).expect(200)
      ).body.data as { generative: boolean; daily_cap: number };
      return body.generative && body.daily_cap === 50 && body;
    });
    expect(saved).toMatchObject({
      enabled: true,
      generative: true,
      generative_available: true,
      guidance: 'Be brief and friendly.',
      forbidden_topics: ['refunds for damaged goods', 'pricing'],
      daily_cap: 50,
    });
    // The bot's own settings stayed as they were saved.
    await expect(
      settings.getByRole('switch', { name: 'Answer visitors automatically' }).isChecked(),
    ).resolves.toBe(true);

    // A visitor asks over the widget API; the model answers from the passages; the visitor says it helped.
    const chat = await startWidgetChat(suite.app.url, suite.owner.site, [
      'I forgot my password, what now?',
    ]);
    await eventually(async () => {
      const messages = (
        await request(suite.app.url)
          .get('/api/widget/messages?after_id=0')
          .set('Authorization', `Bearer ${chat.sessionToken}`)
          .expect(200)
      ).body.data as { sender_type: string; type: string }[];
      return messages.some((m) => m.sender_type === 'bot' && m.type === 'generated');
    });
    const system = model.calls[model.calls.length - 1].body.messages[0].content;
    expect(system).toContain('Be brief and friendly.');
    expect(system).toContain('refunds for damaged goods');
    await request(suite.app.url)
      .post('/api/widget/bot-resolved')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ conversation_id: chat.id })
      .expect(200);
    // A question the passages do not answer: handed over, no answer.
    await startWidgetChat(suite.app.url, suite.owner.site, ['Will the weather delay my parcel?']);
    await eventually(
      async () =>
        ((await api().get('/api/agent/answer-log').expect(200)).body.data as unknown[]).length ===
        2,
    );

    await page.reload();
    const answered = log.getByRole('row', { name: /I forgot my password, what now\?/ });
    await answered.waitFor();
    await answered.getByText('Generated', { exact: true }).waitFor();
    await answered.getByText('Use "Forgot password" on the login page [1]').waitFor();
    const source = answered.getByRole('link', { name: 'Password and parcels' });
    await expect(source.getAttribute('href')).resolves.toMatch(/\/articles\/password-and-parcels/);
    await answered.getByRole('cell', { name: 'That helped', exact: true }).waitFor();
    await answered.getByRole('cell', { name: 'No', exact: true }).waitFor();
    const handedOver = log.getByRole('row', { name: /Will the weather delay my parcel\?/ });
    await handedOver.getByText('Not answered: the passages did not cover the question').waitFor();
    await handedOver.getByRole('cell', { name: 'Yes', exact: true }).waitFor();
    expect(await handedOver.getByText('Generated', { exact: true }).count()).toBe(0);
    await log.getByText('2 entries').waitFor();
    await answered.getByText('test-model,', { exact: false }).waitFor();

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/answer-log-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/answer-log-390.png`, fullPage: true });
    await generative.screenshot({ path: `${SHOTS}/answer-log-generative-390.png` });
    await log.screenshot({ path: `${SHOTS}/answer-log-table-390.png` });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('as agent: reads the generated-answer settings and the log, and cannot change them', async () => {
    const agent = await addMember(suite.app.url, suite.owner.token, 'agent');
    await suite.logIn(agent);
    await open();
    const generative = page.getByRole('region', { name: 'Generated answers' });
    const toggle = generative.getByRole('switch', {
      name: 'Generate answers with the language model',
    });
    await expect(toggle.isChecked()).resolves.toBe(true);
    await expect(toggle.isDisabled()).resolves.toBe(true);
    await expect(generative.getByRole('textbox', { name: 'Guidance' }).isDisabled()).resolves.toBe(
      true,
    );
    await generative.getByText('refunds for damaged goods').waitFor();
    expect(await generative.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    expect(await generative.getByRole('button', { name: 'Save generated answers' }).count()).toBe(
      0,
    );
    const log = page.getByRole('region', { name: 'Answer log' });
    await log.getByRole('row', { name: /I forgot my password, what now\?/ }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
