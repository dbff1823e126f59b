import os from 'node:os';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
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
 * Macros (issue 26): an owner puts one together in Settings (reply from a canned response, add a
 * label, close); an agent runs it from the conversation and sees every step done at once, or, when
 * one step cannot be done, is told nothing was changed. Agents have no Macros settings.
 */
describeIfBrowser('the dashboard: macros', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  const step = screenshotOnFailure('dashboard-macros', () => page);
  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });

  beforeAll(async () => {
    suite = await startDashboardSuite({ organization: 'Acme Macros' });
    ({ app, browser, service, owner } = suite);
    const created = await request(app.url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;
    await request(app.url)
      .post('/api/agent/canned-responses')
      .set(asOwner())
      .send({ shortcut: 'refund', body: 'Your refund is on its way: 5 working days.' })
      .expect(201);
    await request(app.url)
      .post('/api/agent/labels')
      .set(asOwner())
      .send({ name: 'Billing', color: '#1f6feb' })
      .expect(201);
  });

  afterAll(() => suite?.stop());

  const startChat = async (name: string, body: string) => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, visitor_name: name })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body })
      .expect(201);
    return session.conversation_id;
  };

  const logIn = async (who: { email: string; password: string; name: string }, to: string) => {
    await page?.close();
    await browser.context.clearCookies();
    page = await browser.newPage();
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: `Account menu for ${who.name}` }).waitFor();
    await page.goto(`${service}${to}`);
    return page;
  };
  const asOwnerLogin = () => ({
    email: owner.user.email,
    password: owner.password,
    name: owner.user.name,
  });
  async function pictures(on: Page, name: string) {
    for (const width of [1440, 390]) {
      await on.setViewportSize({ width, height: 900 });
      await on.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    await on.setViewportSize({ width: 1440, height: 900 });
  }
  const pick = async (p: Page, combobox: string, option: string) => {
    await p.getByRole('combobox', { name: combobox }).click();
    await p.getByRole('option', { name: option, exact: true }).click();
  };

  step('an owner puts a macro together in Settings, step by step', async () => {
    const p = await logIn(asOwnerLogin(), '/settings/macros');
    await p.getByRole('link', { name: 'Macros' }).waitFor();
    const form = p.getByRole('form', { name: 'Add a macro' });
    await form.getByRole('textbox', { name: 'Macro name' }).fill('Refund and close');
    await pick(p, 'Canned response of step 1', '/refund');
    await form.getByRole('button', { name: 'Add a step' }).click();
    await pick(p, 'What step 2 does', 'Add labels');
    await p.getByRole('combobox', { name: 'Labels of step 2', exact: true }).click();
    await p.getByRole('option', { name: 'Billing', exact: true }).click();
    await p.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Add a step' }).click();
    // A new step closes by default.
    expect(await p.getByRole('combobox', { name: 'What step 3 does' }).inputValue()).toBe('Close');
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'macros-settings-owner');
    await form.getByRole('button', { name: 'Add macro' }).click();
    await p.getByText('The macro Refund and close was added.').waitFor();
    const row = p.getByRole('row', { name: /Refund and close/ });
    await row.getByText('Reply with a canned response → Add labels → Close').waitFor();

    // A second one whose reply step fails on a closed conversation (for the next step).
    await form.getByRole('textbox', { name: 'Macro name' }).fill('Label and reply');
    await pick(p, 'What step 1 does', 'Add labels');
    await p.getByRole('combobox', { name: 'Labels of step 1', exact: true }).click();
    await p.getByRole('option', { name: 'Billing', exact: true }).click();
    await p.keyboard.press('Escape');
    await form.getByRole('button', { name: 'Add a step' }).click();
    await pick(p, 'What step 2 does', 'Reply with a canned response');
    await pick(p, 'Canned response of step 2', '/refund');
    await form.getByRole('button', { name: 'Add macro' }).click();
    await p.getByText('The macro Label and reply was added.').waitFor();
    const saved = await request(app.url).get('/api/agent/macros').set(asOwner()).expect(200);
    expect(saved.body.data.map((m: { name: string }) => m.name)).toEqual([
      'Label and reply',
      'Refund and close',
    ]);
    expect(saved.body.data[1].actions.map((a: { type: string }) => a.type)).toEqual([
      'reply',
      'add_labels',
      'close',
    ]);
  });

  step('a step without what it needs is named under its field', async () => {
    const p = await logIn(asOwnerLogin(), '/settings/macros');
    const form = p.getByRole('form', { name: 'Add a macro' });
    await form.getByRole('textbox', { name: 'Macro name' }).fill('Half done');
    await form.getByRole('button', { name: 'Add macro' }).click();
    await form.getByText('Pick one of your canned responses.').waitFor();
    expect(await form.getByText(/canned_response_id/).count()).toBe(0);
    expect(await seriousAxeViolations(p)).toEqual([]);
  });

  step('an agent runs a macro from the conversation: every step at once', async () => {
    const chat = await startChat('Rita Refund', 'Where is my refund?');
    const p = await logIn(agent, `/inbox/${chat}`);
    await p.getByRole('heading', { name: 'Rita Refund' }).waitFor();
    await p.getByRole('button', { name: 'Macros' }).click();
    await p.getByRole('menuitem', { name: 'Refund and close' }).waitFor();
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'macros-menu-agent');
    await p.getByRole('menuitem', { name: 'Refund and close' }).click();
    await p.getByRole('status').filter({ hasText: '“Refund and close” ran.' }).waitFor();
    const log = p.getByRole('log', { name: 'Messages' });
    await log.getByText('Your refund is on its way: 5 working days.').waitFor();
    await p.getByRole('button', { name: 'Reopen' }).waitFor();
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${chat}`)
      .set(asOwner())
      .expect(200);
    expect(detail.body.data.status).toBe('closed');
    expect(detail.body.data.labels.map((l: { name: string }) => l.name)).toEqual(['Billing']);
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'macros-ran-agent');
  });

  step('a step that cannot be done changes nothing, and the agent is told', async () => {
    const chat = await startChat('Carl Closed', 'Thanks, bye.');
    await request(app.url)
      .post(`/api/agent/conversations/${chat}/close`)
      .set(asOwner())
      .expect(200);
    const p = await logIn(agent, `/inbox/${chat}`);
    await p.getByRole('heading', { name: 'Carl Closed' }).waitFor();
    await p.getByRole('button', { name: 'Macros' }).click();
    await p.getByRole('menuitem', { name: 'Label and reply' }).click();
    await p.getByRole('alert').filter({ hasText: '“Label and reply” changed nothing' }).waitFor();
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${chat}`)
      .set(asOwner())
      .expect(200);
    expect(detail.body.data.labels).toEqual([]);
  });

  step('agents have no Macros settings', async () => {
    const p = await logIn(agent, '/settings/macros');
    await p
      .getByText(/only owners and admins/i)
      .first()
      .waitFor();
    expect(await p.getByRole('link', { name: 'Macros' }).count()).toBe(0);
    expect(await p.getByRole('form', { name: 'Add a macro' }).count()).toBe(0);
  });
});
