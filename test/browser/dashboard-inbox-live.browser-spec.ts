import type { Page } from 'playwright-core';
import request from 'supertest';
import { addMember, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

/** What the page's init script records: notifications shown and chimes started. */
interface Recorded {
  notifications: { title: string; body: string }[];
  chimes: number;
}

/**
 * Runs in the page before the app: records `new Notification(...)` and every tone the chime
 * starts (Web Audio oscillators), and lets the test say whether the tab counts as hidden
 * (notifications are only shown while the agent looks elsewhere).
 */
const RECORD_NOTIFICATIONS = `
  window.__recorded = { notifications: [], chimes: 0 };
  window.__hidden = false;
  Object.defineProperty(Document.prototype, 'hidden', { get: () => window.__hidden });
  const Real = window.Notification;
  const Recording = function (title, options) {
    window.__recorded.notifications.push({ title, body: (options && options.body) || '' });
    return new Real(title, options);
  };
  Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
  Recording.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recording;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__recorded.chimes += 1;
    return start.apply(this, args);
  };
`;

/** Whether the page's tab counts as hidden (see RECORD_NOTIFICATIONS). */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate((value) => {
    (globalThis as unknown as { __hidden: boolean }).__hidden = value;
  }, hidden);

/**
 * The open conversation as the agent lives in it: a long history loaded as they scroll back,
 * sound and browser notifications for what waits for them, the tab title's count and the
 * keyboard. Each test opens its own page.
 */
describeIfBrowser('the agent dashboard: history, notifications and keyboard', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page;

  const auth = () => ({ Authorization: `Bearer ${owner.token}` });
  const recorded = () =>
    page.evaluate(() => (globalThis as unknown as { __recorded: Recorded }).__recorded);

  /** A visitor's chat: started, with its first message. */
  const startChat = async (name: string, body: string) => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, visitor_name: name })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    const says = async (text: string) =>
      request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body: text })
        .expect(201);
    await says(body);
    return { id: session.conversation_id, says };
  };

  /** A fresh page, logged in as the owner, on `path`; failures leave a screenshot behind. */
  const openPage = async (to: string) => {
    await page?.close();
    page = await browser.newPage();
    await page.addInitScript({ content: RECORD_NOTIFICATIONS });
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(owner.user.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
    await page.goto(`${service}${to}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  };
  const step = screenshotOnFailure('dashboard-live', () => page);

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      organization: 'Acme Live',
    }));
    await browser.context.grantPermissions(['notifications'], { origin: service });
  });

  afterAll(() => suite?.stop());

  step('loads a long history as the agent scrolls back, keeping the place', async () => {
    const chat = await startChat('Hannah History', 'Message 1');
    for (let n = 2; n <= 70; n += 1) await chat.says(`Message ${n}`);
    await openPage(`/inbox/${chat.id}`);
    const log = page.getByRole('log', { name: 'Messages' });
    // The latest page (50 messages) only: 21 to 70.
    await log.getByText('Message 70', { exact: true }).waitFor();
    await log.getByText('Message 21', { exact: true }).waitFor();
    await expect(log.getByText('Message 20', { exact: true }).count()).resolves.toBe(0);
    const more = page.getByRole('button', { name: 'Load earlier messages' });
    await more.waitFor();
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);

    // Scrolling to the top loads the 20 before, and the place stays where it was: the message
    // that was first stays near the top (not pushed a screen down by the 20 above it).
    const anchor = log.getByText('Message 21', { exact: true });
    const viewport = await log.evaluate((element) => {
      // The test's types have no DOM: the scrolling box is the log's nearest scrollable parent.
      interface Box {
        parentElement: Box | null;
        scrollHeight: number;
        clientHeight: number;
        scrollTop: number;
        getBoundingClientRect(): { top: number; bottom: number };
      }
      let box = (element as unknown as Box).parentElement;
      while (box && box.scrollHeight <= box.clientHeight) box = box.parentElement;
      box!.scrollTop = 0;
      const { top, bottom } = box!.getBoundingClientRect();
      return { top, bottom };
    });
    await log.getByText('Message 1', { exact: true }).waitFor();
    await more.waitFor({ state: 'detached' });
    const offset = (await anchor.boundingBox())!.y - viewport.top;
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(250);
    await expect(log.getByText(/^Message \d+$/).count()).resolves.toBe(70);

    // A live message while the agent reads further up: the view stays, and a button offers
    // the way down.
    const inView = async (text: string) => {
      const box = (await log.getByText(text, { exact: true }).boundingBox())!;
      return box.y >= viewport.top && box.y + box.height <= viewport.bottom;
    };
    const before = (await anchor.boundingBox())!.y;
    await chat.says('Message 71');
    const down = page.getByRole('button', { name: '1 new message' });
    await down.waitFor();
    await expect(log.getByText(/^Message \d+$/).count()).resolves.toBe(71);
    expect(Math.abs((await anchor.boundingBox())!.y - before)).toBeLessThan(5);
    await expect(inView('Message 71')).resolves.toBe(false);
    await expect(seriousAxeViolations(page)).resolves.toEqual([]);
    await down.click();
    await down.waitFor({ state: 'detached' });
    await eventually(() => inView('Message 71'));

    // At the bottom, the view follows what arrives.
    await chat.says('Message 72');
    await log.getByText('Message 72', { exact: true }).waitFor();
    await eventually(() => inView('Message 72'));
    await expect(page.getByRole('button', { name: /new message/ }).count()).resolves.toBe(0);
  });

  step('chimes, notifies and counts in the tab title for a new waiting chat', async () => {
    await openPage('/inbox?view=all');
    // A click unlocks the sound (browsers start audio only after a gesture).
    await page.getByRole('heading', { name: 'Inbox' }).click();
    await setHidden(page, true);
    const before = await recorded();
    await startChat('Nora New', 'Is anyone there?');
    await page.getByRole('link', { name: /Nora New/ }).waitFor();
    const after = await eventually(async () => {
      const now = await recorded();
      return now.notifications.length > before.notifications.length && now;
    });
    expect(after.notifications.at(-1)).toEqual({
      title: 'A new chat is waiting',
      body: 'Is anyone there?',
    });
    expect(after.chimes).toBeGreaterThan(before.chimes);
    await eventually(async () => (await page.title()).startsWith('(1) '));

    // The agent looks at the tab: no notification (the chime and the count remain).
    await setHidden(page, false);
    await startChat('Vera Visible', 'Hello?');
    await eventually(async () => (await page.title()).startsWith('(2) '));
    await eventually(async () => (await recorded()).chimes > after.chimes);
    expect((await recorded()).notifications).toHaveLength(after.notifications.length);
  });

  step('notifies for a message in one of the agent own chats, not a teammate chat', async () => {
    const mine = await startChat('Mia Mine', 'First question');
    const theirs = await startChat('Tom Theirs', 'Their question');
    const teammate = await addMember(app.url, owner.token, 'agent');
    await request(app.url)
      .post(`/api/agent/conversations/${mine.id}/assign`)
      .set(auth())
      .send({ agent_id: owner.user.id })
      .expect(200);
    await request(app.url)
      .post(`/api/agent/conversations/${theirs.id}/assign`)
      .set(auth())
      .send({ agent_id: teammate.id })
      .expect(200);
    await openPage('/inbox?view=all');
    await page.getByRole('link', { name: /Mia Mine/ }).waitFor();
    await page.getByRole('heading', { name: 'Inbox' }).click();
    await setHidden(page, true);
    const before = await recorded();

    await theirs.says('Still waiting for my teammate');
    await page.getByText('Still waiting for my teammate').waitFor();
    await mine.says('A second question');
    const after = await eventually(async () => {
      const now = await recorded();
      return now.notifications.length > before.notifications.length && now;
    });
    // Only the agent's own chat: the teammate's message came first and raised nothing.
    expect(after.notifications.slice(before.notifications.length)).toEqual([
      { title: 'New message from Mia Mine', body: 'A second question' },
    ]);
    expect(after.chimes).toBeGreaterThan(before.chimes);
    await eventually(async () => (await page.title()).startsWith('(1) '));
  });

  step(
    'works from the keyboard: next, previous, reply, assign, close and the ? sheet',
    async () => {
      for (const name of ['Kim', 'Kai', 'Kit']) await startChat(`${name} Keys`, 'Hi');
      await openPage('/inbox?view=all');
      const list = page.getByRole('list', { name: 'Conversations' });
      await list.getByRole('link').first().waitFor();
      const names = await list
        .getByRole('link')
        .evaluateAll((items) => items.map((item) => item.getAttribute('href')));
      // Every visitor here has a two-word name, first in the link's text.
      const visitors = (await list.getByRole('link').allTextContents()).map(
        (text) => /^\S+ [A-Z][a-z]+/.exec(text)?.[0] ?? '',
      );
      expect(names.length).toBeGreaterThan(2);
      const current = () => new URL(page.url()).pathname + new URL(page.url()).search;

      // j opens the first, then the next; k goes back.
      await page.getByRole('heading', { name: 'Inbox' }).click();
      await page.keyboard.press('j');
      await eventually(async () => current() === names[0]);
      await page.getByRole('log', { name: 'Messages' }).waitFor();
      await page.keyboard.press('j');
      await eventually(async () => current() === names[1]);
      await page.keyboard.press('j');
      await eventually(async () => current() === names[2]);
      await page.keyboard.press('k');
      await eventually(async () => current() === names[1]);
      const section = page.getByRole('region', { name: `Conversation with ${visitors[1]}` });
      await section.getByRole('textbox', { name: 'Reply' }).waitFor();

      // r puts the cursor in the reply box; typing there is text, not shortcuts.
      await page.keyboard.press('r');
      const reply = page.getByRole('textbox', { name: 'Reply' });
      await eventually(async () =>
        reply.evaluate(
          (element) =>
            (element as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument
              .activeElement === element,
        ),
      );
      await page.keyboard.type('jack');
      await expect(reply.inputValue()).resolves.toBe('jack');
      await eventually(async () => current() === names[1]);
      await reply.fill('');
      await page.keyboard.press('Escape');
      await page.getByRole('log', { name: 'Messages' }).click();

      // a assigns it to me, ? lists the keys, c closes it.
      await page.keyboard.press('a');
      await section.getByText('Assigned to Olivia Owner').waitFor();
      await page.keyboard.press('Shift+?');
      const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      for (const line of [
        'Next conversation',
        'Previous conversation',
        'Write a reply',
        'Assign the conversation to me',
        'Close the conversation',
      ]) {
        await sheet.getByText(line).waitFor();
      }
      await expect(seriousAxeViolations(page)).resolves.toEqual([]);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      await page.keyboard.press('c');
      await page.getByText('This conversation is closed.').waitFor();
      const id = Number(/\/inbox\/(\d+)/.exec(current())?.[1]);
      const detail = await request(app.url)
        .get(`/api/agent/conversations/${id}`)
        .set(auth())
        .expect(200);
      expect(detail.body.data).toMatchObject({
        status: 'closed',
        assigned_agent_id: owner.user.id,
      });
    },
  );
});
