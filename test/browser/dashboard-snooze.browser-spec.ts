import os from 'node:os';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

/**
 * Snooze and hand-over in the conversation (issue 26): an agent snoozes a chat out of the open
 * view (a preset or a time of their own), it comes back when the visitor writes or its time
 * passes, live; an owner hands a chat over to the agent with a private note in one step.
 */
describeIfBrowser('the dashboard: snooze and hand-over', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  const step = screenshotOnFailure('dashboard-snooze', () => page);
  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      organization: 'Acme Snooze',
    }));
    const created = await request(app.url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;
  });

  afterAll(() => suite?.stop());

  /** A visitor's chat with its first message; `says` writes more. */
  const startChat = async (name: string, body: string) => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, visitor_name: name })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    const says = (text: string) =>
      request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body: text })
        .expect(201);
    await says(body);
    return { id: session.conversation_id, says };
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
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    return page;
  };
  const list = () => page!.getByRole('list', { name: 'Conversations' });

  step(
    'an agent snoozes a chat out of the open view; the visitor writing brings it back',
    async () => {
      const chat = await startChat('Sam Snooze', 'Can you call me tomorrow?');
      const p = await logIn(agent, `/inbox/${chat.id}`);
      await list().getByText('Sam Snooze').waitFor();

      await p.getByRole('button', { name: 'Snooze' }).click();
      await p.getByRole('menuitem', { name: 'Until tomorrow, 9:00' }).waitFor();
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.getByRole('menuitem', { name: 'Until tomorrow, 9:00' }).click();
      await p.getByText(/^Snoozed until /).waitFor();
      await list().getByText('Sam Snooze').waitFor({ state: 'detached' });
      await p.screenshot({ path: `${os.tmpdir()}/snooze-agent-1440.png` });

      // The Snoozed view lists it.
      await p.getByRole('combobox', { name: 'View', exact: true }).selectOption('snoozed');
      await list().getByText('Sam Snooze').waitFor();

      // The visitor writes: it wakes, live, in the open view.
      await p.getByRole('combobox', { name: 'View', exact: true }).selectOption('all');
      await list().getByText('Sam Snooze').waitFor({ state: 'detached' });
      await chat.says('Actually, now is fine.');
      await list().getByText('Sam Snooze').waitFor({ timeout: 15_000 });
      await p.getByText(/^Snoozed until /).waitFor({ state: 'detached' });
    },
  );

  step('a time of the agent’s own, and the chat comes back when it passes', async () => {
    const chat = await startChat('Cleo Custom', 'Later please.');
    const p = await logIn(agent, `/inbox/${chat.id}`);
    await p.getByRole('button', { name: 'Snooze' }).click();
    await p.getByRole('menuitem', { name: 'Until a time you pick…' }).click();
    const dialog = p.getByRole('dialog', { name: 'Snooze until a time' });
    const when = dialog.getByLabel('Comes back on');
    await when.waitFor();
    expect(await seriousAxeViolations(p)).toEqual([]);
    // Tomorrow at this time (the input is in the browser's own zone, to the minute).
    const later = await p.evaluate(() => {
      const d = new Date(Date.now() + 24 * 3600_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    });
    await when.fill(later);
    await dialog.getByRole('button', { name: 'Snooze' }).click();
    await dialog.waitFor({ state: 'detached' });
    await list().getByText('Cleo Custom').waitFor({ state: 'detached' });
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${chat.id}`)
      .set(asOwner())
      .expect(200);
    const until = new Date(detail.body.data.snoozed_until as string).getTime();
    expect(Math.abs(until - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);

    // Another chat snoozed for two seconds: when they pass, the wake-up is pushed and the open
    // view shows it again without a reload.
    const brief = await startChat('Bea Brief', 'Just a moment.');
    await list().getByText('Bea Brief').waitFor({ timeout: 15_000 });
    await request(app.url)
      .post(`/api/agent/conversations/${brief.id}/snooze`)
      .set(asOwner())
      .send({ until: new Date(Date.now() + 2_000).toISOString() })
      .expect(200);
    await list().getByText('Bea Brief').waitFor({ state: 'detached' });
    await list().getByText('Bea Brief').waitFor({ timeout: 30_000 });
  });

  step('an owner hands a chat over to the agent with a private note in one step', async () => {
    const chat = await startChat('Hugo Handover', 'I was promised a refund.');
    const p = await logIn(
      { email: owner.user.email, password: owner.password, name: owner.user.name },
      `/inbox/${chat.id}`,
    );
    await p.getByRole('button', { name: 'Assign' }).click();
    await p.getByRole('menuitem', { name: 'Hand over with a note…' }).click();
    const dialog = p.getByRole('dialog', { name: 'Hand over the conversation' });
    await dialog.getByLabel('Hand over to').selectOption(String(agent.id));
    await dialog.getByLabel('Private note').fill('Refund approved by finance, please confirm.');
    expect(await seriousAxeViolations(p)).toEqual([]);
    await p.screenshot({ path: `${os.tmpdir()}/handover-owner-1440.png` });
    await dialog.getByRole('button', { name: 'Hand over' }).click();
    await dialog.waitFor({ state: 'detached' });
    await p.getByText('Assigned to Ada Agent').waitFor();
    const log = p.getByRole('log', { name: 'Messages' });
    await log.getByText('Refund approved by finance, please confirm.').waitFor();
    await log
      .getByText(/Private note/)
      .first()
      .waitFor();
  });

  step(
    'shortcuts for labels, private note, views and snooze, listed in the shortcut sheet',
    async () => {
      const chat = await startChat('Kim Keys', 'Keyboard person here.');
      const p = await logIn(agent, `/inbox/${chat.id}`);
      await p.getByRole('heading', { name: 'Kim Keys' }).waitFor();
      const focusedLabel = () =>
        p.evaluate(() => {
          const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
          const el = doc.activeElement as { getAttribute(name: string): string | null } | null;
          return el?.getAttribute('aria-label') ?? null;
        });

      await p.keyboard.press('Shift+?');
      const sheet = p.getByRole('dialog', { name: 'Keyboard shortcuts' });
      for (const text of [
        'Write a private note',
        'Label the conversation',
        'Snooze the conversation',
        'Views: Mine, Unassigned, All, Missed, Snoozed, Closed',
      ]) {
        await sheet.getByText(text).waitFor();
      }
      expect(await seriousAxeViolations(p)).toEqual([]);
      await p.screenshot({ path: `${os.tmpdir()}/shortcuts-agent-1440.png` });
      await p.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      // z: the snooze choices.
      await p.keyboard.press('z');
      await p.getByRole('menuitem', { name: 'For 1 hour' }).waitFor();
      await p.keyboard.press('Escape');
      await p.getByRole('menuitem', { name: 'For 1 hour' }).waitFor({ state: 'detached' });

      // n: the box switches to a private note and takes the focus.
      await p.locator('body').click({ position: { x: 5, y: 5 } });
      await p.keyboard.press('n');
      await p.getByRole('textbox', { name: 'Private note' }).waitFor();
      expect(await focusedLabel()).toBe('Private note');
      await p.keyboard.press('Escape');

      // l: the labels.
      await p.keyboard.press('l');
      await p.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { activeElement: unknown } }).document;
        const el = doc.activeElement as { getAttribute(name: string): string | null } | null;
        return el?.getAttribute('placeholder') === 'Add labels';
      });
      await p.keyboard.press('Escape');
      await p.locator('body').click({ position: { x: 5, y: 5 } });

      // 1 to 6: the views (2 is Unassigned, 5 Snoozed).
      await p.keyboard.press('2');
      await p.waitForURL(/view=unassigned/);
      await p.keyboard.press('5');
      await p.waitForURL(/view=snoozed/);
      // The address changes before the page renders the view it names: wait for the render.
      const viewSelect = p.getByRole('combobox', { name: 'View', exact: true });
      await eventually(async () => (await viewSelect.inputValue()) === 'snoozed', 15_000);
    },
  );
});
