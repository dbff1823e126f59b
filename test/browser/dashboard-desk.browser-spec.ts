import type { Page } from 'playwright-core';
import request from 'supertest';
import { addMember, uniqueEmail } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { connect, type TestSocket } from '../utils/sockets';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
}

/**
 * A day at the desk in the agent dashboard: an owner registers, installs the widget, a visitor
 * writes and the agent hears it and answers live, and a ticket is worked to resolved.
 */
describeIfBrowser('the agent dashboard: inbox and tickets', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let page: Page;
  const sockets: TestSocket[] = [];
  const owner = { email: uniqueEmail('owner'), password: 'correct horse battery', token: '' };
  let widgetKey = '';
  let session: Session;
  let latestId = 0;

  const agentApi = () => ({ Authorization: `Bearer ${owner.token}` });
  /** A conversation's link in the list of one view (its address names the view). */
  const inView = (view: string, name: RegExp) =>
    page.getByRole('link', { name }).and(page.locator(`[href$="?view=${view}"]`));
  const noSeriousViolations = async () =>
    expect(JSON.stringify(await seriousAxeViolations(page), null, 1)).toBe('[]');
  const visitorSays = async (body: string) =>
    (
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body })
        .expect(201)
    ).body as { id: number };

  const step = screenshotOnFailure('dashboard-desk', () => page);

  beforeAll(async () => {
    // The owner registers through the page.
    ({ app, service, browser } = suite = await startDashboardSuite({ organization: false }));
    page = await browser.newPage();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await suite?.stop();
  });

  step('sends a visitor without a session to the login page, which passes axe', async () => {
    await page.goto(`${service}/inbox`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await noSeriousViolations();
  });

  step('registers an organization and guides the owner to install the widget', async () => {
    await page.getByRole('link', { name: 'Create an organization' }).click();
    await page.getByLabel('Organization name').fill('Acme Desk');
    await page.getByLabel('Your name').fill('Olivia Owner');
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await noSeriousViolations();
    await page.getByRole('button', { name: 'Create organization' }).click();

    await page.getByRole('heading', { name: 'Install the chat widget' }).waitFor();
    const snippet = await page.getByLabel('Widget snippet').textContent();
    widgetKey = /data-widget-key="([^"]+)"/.exec(snippet ?? '')?.[1] ?? '';
    expect(widgetKey).not.toBe('');
    expect(snippet).toContain(`${service}/widget.js`);
    await expect(
      page.getByRole('link', { name: 'Try it on the demo page' }).getAttribute('href'),
    ).resolves.toBe(`/demo?widget_key=${widgetKey}`);
    await page.getByRole('button', { name: 'Copy snippet' }).waitFor();
    await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
    await noSeriousViolations();

    const login = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: owner.email, password: owner.password })
      .expect(200);
    owner.token = (login.body as { token: string }).token;
  });

  step('hears a visitor live, notifies, and answers with Enter', async () => {
    // The live channel is up before anything happens (no refresh is ever needed).
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: widgetKey, visitor_name: 'Walter Visitor' })
        .expect(200)
    ).body as Session;
    const widget = await connect(service, '/widget', session.session_token);
    sockets.push(widget);

    await visitorSays('Hello, where is my order?');
    const item = page.getByRole('link', { name: /Walter Visitor/ });
    await item.waitFor({ timeout: 10_000 });
    // Unread in the list and in the tab title.
    await page.getByText('1 unread').waitFor();
    await eventually(async () => (await page.title()).startsWith('(1)'));

    await item.click();
    const log = page.getByRole('log', { name: 'Messages' });
    await log.getByText('Hello, where is my order?').waitFor();
    await eventually(async () => !(await page.title()).startsWith('('));
    // Reading it told the visitor (read receipt).
    await widget.next('read', (r: { reader?: string }) => r.reader === 'agent');

    // The visitor types, then writes again: both show up without a reload.
    await widget.ask('typing', { is_typing: true });
    await page.getByText('Walter Visitor is typing…').waitFor();
    await visitorSays('It was order 1234.');
    await log.getByText('It was order 1234.').waitFor();

    // A canned response: `/ship` offers them, the arrow keys choose, Tab inserts, Enter sends.
    for (const [shortcut, body] of [
      ['shipnorway', 'We ship to Norway in five days.'],
      ['shipping', 'Parcels leave our warehouse within two days.'],
    ]) {
      await request(app.url)
        .post('/api/agent/canned-responses')
        .set(agentApi())
        .send({ shortcut, body })
        .expect(201);
    }
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('/ship');
    const canned = page.getByRole('listbox', { name: 'Canned responses' });
    await canned.getByRole('option', { selected: true }).getByText('/shipnorway').waitFor();
    await reply.press('ArrowDown');
    const chosen = canned.getByRole('option', { selected: true });
    await chosen.getByText('Parcels leave our warehouse within two days.').waitFor();
    expect(await reply.getAttribute('aria-activedescendant')).toBe(await chosen.getAttribute('id'));
    await reply.press('ArrowUp');
    await canned.getByRole('option', { selected: true }).getByText('/shipnorway').waitFor();
    await reply.press('ArrowUp');
    await reply.press('Tab');
    await expect(reply.inputValue()).resolves.toBe('Parcels leave our warehouse within two days.');
    // The answer to the send comes late (as on a slow network, or a loaded CI machine): the
    // visitor has the message already, and what the agent writes next must not be wiped.
    const replies = `${service}/api/agent/conversations/*/messages`;
    await page.route(replies, async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({ response });
    });
    await reply.press('Enter');
    await widget.next(
      'message.created',
      (m: { body?: string }) => m.body === 'Parcels leave our warehouse within two days.',
    );

    // The agent types (the visitor sees it) and sends with Enter.
    await reply.fill('Let me check that for you.');
    await reply.press('Space');
    await widget.next('typing', (t: { is_typing?: boolean }) => t.is_typing === true);
    await reply.press('Enter');
    const answer = await widget.next<{ id: number; body: string; sender_type: string }>(
      'message.created',
      (m) => m.sender_type === 'agent',
    );
    expect(answer.body).toBe('Let me check that for you.');
    await page.unrouteAll({ behavior: 'wait' });
    await log.getByText('Let me check that for you.').waitFor();
    await expect(reply.inputValue()).resolves.toBe('');
    // The visitor reads it: the agent sees "Seen".
    await widget.ask('read', { conversation_id: session.conversation_id, message_id: answer.id });
    await log.getByText('Seen').waitFor();

    // A private note: shown to agents, never to the visitor (socket or HTTP).
    await page.getByText('Private note', { exact: true }).click();
    const noteBox = page.getByRole('textbox', { name: 'Private note' });
    await noteBox.fill('Regular customer, be generous.');
    await noteBox.press('Enter');
    await log.getByText('Regular customer, be generous.').waitFor();
    await page.getByText('Reply', { exact: true }).click();
    await reply.fill('Anything else?');
    await reply.press('Enter');
    await widget.next('message.created', (m: { body?: string }) => m.body === 'Anything else?');
    const seenByVisitor = await request(app.url)
      .get('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .expect(200);
    const bodies = (seenByVisitor.body as { data: { body: string }[] }).data.map((m) => m.body);
    expect(bodies).toContain('Anything else?');
    expect(bodies).not.toContain('Regular customer, be generous.');
    expect(widget.received<{ body?: string }>('message.created').map((m) => m.body)).not.toContain(
      'Regular customer, be generous.',
    );
    await noSeriousViolations();
    await page.screenshot({ path: 'docs/dashboard-inbox.png' });
  });

  step(
    'assigns the conversation to a teammate and to oneself, and closes it by keyboard',
    async () => {
      const teammate = await addMember(app.url, owner.token, 'agent');
      await page.goto(`${service}/inbox/${session.conversation_id}`);
      await page.getByRole('log', { name: 'Messages' }).getByText('Anything else?').waitFor();
      await page.getByRole('button', { name: 'Assign' }).click();
      await page.getByRole('menuitem', { name: 'Assign to agent member' }).click();
      await page.getByText('Assigned to agent member').waitFor();
      const detail = await request(app.url)
        .get(`/api/agent/conversations/${session.conversation_id}`)
        .set(agentApi())
        .expect(200);
      expect((detail.body as { data: { assigned_agent_id: number } }).data.assigned_agent_id).toBe(
        teammate.id,
      );

      // A teammate's chat raises no count in this agent's tab title, though it is unread.
      await page.goto(`${service}/inbox`);
      await page.getByLabel('View').selectOption('all');
      // Unread counts what arrives live: the reloaded page's channel must be up first.
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      await visitorSays('Are you still there?');
      await page.getByText('1 unread').waitFor();
      expect(await page.title()).not.toMatch(/^\(/);
      await page.getByRole('link', { name: /Walter Visitor/ }).click();
      await page.getByRole('log', { name: 'Messages' }).getByText('Are you still there?').waitFor();

      // Keyboard: `a` takes it, `?` lists the shortcuts, `c` closes it.
      await page.getByRole('log', { name: 'Messages' }).click();
      await page.keyboard.press('a');
      await page.getByText('Assigned to Olivia Owner').waitFor();
      await page.keyboard.press('Shift+?');
      const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await sheet.getByText('Next conversation').waitFor();
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
      await page.keyboard.press('c');
      await page.getByText('This conversation is closed.').waitFor();

      await page.getByLabel('View').selectOption('closed');
      await inView('closed', /Walter Visitor/).waitFor();
      await page.getByLabel('View').selectOption('unassigned');
      await page.getByText('No conversations here.').waitFor();
    },
  );

  step('works a ticket from creation to resolved, with an internal note', async () => {
    await page.goto(`${service}/inbox`);
    await page.getByRole('link', { name: 'Tickets' }).click();
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    await page.getByText('No tickets match.').waitFor();
    await noSeriousViolations();

    await page.getByRole('button', { name: 'New ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'New ticket' });
    await dialog.getByLabel('Subject').fill('Order 1234 never arrived');
    await dialog.getByLabel('Description').fill('Walter says the parcel is missing.');
    await dialog.getByLabel('Priority').selectOption('high');
    await dialog.getByLabel('Customer email').fill('walter@example.com');
    await noSeriousViolations();
    await dialog.getByRole('button', { name: 'Create ticket' }).click();

    await page.getByRole('heading', { name: 'Order 1234 never arrived' }).waitFor();
    await page.getByText('Internal note', { exact: true }).click();
    await page.getByLabel('Comment', { exact: true }).fill('Courier says it is in the depot.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    const comments = page.getByRole('log', { name: 'Comments' });
    await comments.getByText('Courier says it is in the depot.').waitFor();
    await page.getByText('Reply to customer', { exact: true }).click();
    await page.getByLabel('Comment', { exact: true }).fill('Your parcel is on its way again.');
    await page.getByRole('button', { name: 'Add comment' }).click();
    await comments.getByText('Your parcel is on its way again.').waitFor();

    await page.getByLabel('Status', { exact: true }).selectOption('resolved');
    await page.getByLabel('Assignee').selectOption({ label: 'Olivia Owner' });
    await eventually(async () => {
      const list = await request(app.url)
        .get('/api/agent/tickets?status=resolved')
        .set(agentApi())
        .expect(200);
      const rows = (list.body as { data: { subject: string; assigned_agent_id: number }[] }).data;
      return rows.length === 1 && rows[0].assigned_agent_id !== null;
    });
    const id = /\/tickets\/(\d+)/.exec(page.url())?.[1];
    const ticket = await request(app.url).get(`/api/agent/tickets/${id}`).set(agentApi());
    const body = ticket.body as {
      data: {
        status: string;
        priority: string;
        comments: { body: string; is_internal: boolean }[];
      };
    };
    expect(body.data).toMatchObject({ status: 'resolved', priority: 'high' });
    expect(body.data.comments.map((c) => [c.body, c.is_internal])).toEqual(
      expect.arrayContaining([
        ['Courier says it is in the depot.', true],
        ['Your parcel is on its way again.', false],
      ]),
    );
    // The history names who did what, in the catalog's words.
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText('Olivia Owner opened the ticket').waitFor();
    await activity.getByText('Olivia Owner changed the status from Open to Resolved').waitFor();
    await activity.getByText('Olivia Owner assigned it to Olivia Owner').waitFor();
    await noSeriousViolations();
    await page.screenshot({ path: '/tmp/dashboard-ticket.png', fullPage: true });

    // The list filters by status and finds it by number or subject.
    await page.getByRole('link', { name: 'All tickets' }).click();
    await page.getByLabel('Status', { exact: true }).selectOption('resolved');
    await page.getByRole('link', { name: 'Order 1234 never arrived' }).waitFor();
    await page.getByLabel('Search by number or subject').fill('nothing like it');
    await page.getByText('No tickets match.').waitFor();
    await page.getByLabel('Search by number or subject').fill('1234');
    await page.getByRole('link', { name: 'Order 1234 never arrived' }).waitFor();
  });

  step('logs out, and logs in again with the Email and Password fields', async () => {
    await page.goto(`${service}/tickets`);
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.goto(`${service}/tickets`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();

    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Tickets', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/tickets');
  });

  step('assigns a new chat automatically and filters the inbox by label', async () => {
    await request(app.url)
      .patch('/api/agent/organization')
      .set(agentApi())
      .send({ auto_assignment: { enabled: true, capacity: 5 } })
      .expect(200);
    await page.goto(`${service}/inbox`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await visitorSays('Thanks, one more question about shipping.');
    const latest = await eventually(async () => {
      const list = await request(app.url)
        .get('/api/agent/conversations?assigned_agent_id=me')
        .set(agentApi())
        .expect(200);
      const rows = (list.body as { data: { id: number; status: string }[] }).data;
      return rows.find((c) => c.status !== 'closed');
    });
    latestId = latest.id;
    await page.getByLabel('View').selectOption('mine');
    await page
      .getByRole('link', { name: /Walter Visitor/ })
      .first()
      .click();
    await page.getByText('Assigned to Olivia Owner').waitFor();
    await page.getByRole('log', { name: 'Messages' }).getByText('one more question').waitFor();

    const label = await request(app.url)
      .post('/api/agent/labels')
      .set(agentApi())
      .send({ name: 'shipping', color: '#1f6feb' })
      .expect(201);
    await request(app.url)
      .put(`/api/agent/conversations/${latest.id}/labels`)
      .set(agentApi())
      .send({ label_ids: [(label.body as { data: { id: number } }).data.id] })
      .expect(200);
    await page.goto(`${service}/inbox`);
    // The list of the view chosen (the previous view's list may still show for a moment).
    await page.getByLabel('View').selectOption({ label: 'Label: shipping' });
    const labelled = inView('label%3Ashipping', /Walter Visitor/);
    await labelled.waitFor();
    await expect(labelled.getAttribute('href')).resolves.toBe(
      `/inbox/${latest.id}?view=label%3Ashipping`,
    );
    await page.getByLabel('View').selectOption('closed');
    await inView('closed', /Walter Visitor.*Closed/).waitFor();
    await expect(inView('closed', /Walter Visitor/).count()).resolves.toBe(1);
    await noSeriousViolations();
  });

  step('shows the visitor panel and sets labels from the conversation header', async () => {
    const labelIds = async () =>
      (
        (
          await request(app.url)
            .get(`/api/agent/conversations/${latestId}`)
            .set(agentApi())
            .expect(200)
        ).body as { data: { labels: { name: string }[] } }
      ).data.labels.map((label) => label.name);
    await request(app.url)
      .post('/api/agent/labels')
      .set(agentApi())
      .send({ name: 'billing', color: '#8250df' })
      .expect(201);
    await page.goto(`${service}/inbox/${latestId}`);
    const panel = page.getByRole('complementary', { name: 'Visitor' });
    const earlier = panel.getByRole('region', { name: 'Earlier conversations' });
    await earlier
      .getByRole('link', { name: new RegExp(`^Conversation #${session.conversation_id},`) })
      .waitFor();
    await panel.getByRole('region', { name: 'Account login' }).getByText('Not logged in').waitFor();
    await panel.getByRole('region', { name: 'Tickets' }).getByText('None yet.').waitFor();
    await panel.getByRole('region', { name: 'Appointments' }).getByText('None yet.').waitFor();

    // Labels: add one from the header's select, then take it off again.
    const header = page.getByRole('region', { name: 'Conversation with Walter Visitor' });
    await header.getByText('shipping', { exact: true }).first().waitFor();
    const select = page.getByRole('combobox', { name: 'Labels' });
    await select.click();
    // Each label shows its colour (a dot beside the name), in the picker and in the list.
    await page
      .getByRole('option', { name: 'billing', exact: true })
      .locator('[data-label-color="#8250df"]')
      .waitFor();
    await page.getByRole('option', { name: 'billing', exact: true }).click();
    await eventually(async () => (await labelIds()).sort().join() === 'billing,shipping');
    await page
      .getByRole('link', { name: /Walter Visitor/ })
      .first()
      .locator('[data-label-color="#8250df"]')
      .waitFor();
    await page.keyboard.press('Escape');
    await noSeriousViolations();
    // Picking a chosen label again takes it off.
    await select.click();
    await page.getByRole('option', { name: 'billing', exact: true }).click();
    await eventually(async () => (await labelIds()).join() === 'shipping');
    await expect(header.getByText('billing', { exact: true }).count()).resolves.toBe(0);
  });

  step('turns the conversation into a ticket, linked both ways', async () => {
    await page.goto(`${service}/inbox/${latestId}`);
    const header = page.getByRole('region', { name: 'Conversation with Walter Visitor' });
    await header.getByRole('button', { name: 'Create ticket' }).click();
    const dialog = page.getByRole('dialog', { name: 'New ticket' });
    // Filled from the chat: the visitor's first words, their lines, their name.
    const subject = await dialog.getByLabel('Subject').inputValue();
    expect(subject.length).toBeGreaterThan(0);
    expect(await dialog.getByLabel('Description').inputValue()).toContain(
      subject.replace(/…$/, ''),
    );
    expect(await dialog.getByLabel('Customer name').inputValue()).toBe('Walter Visitor');
    await dialog.getByLabel('Subject').fill('Walter wants a refund');
    await noSeriousViolations();
    await dialog.getByRole('button', { name: 'Create ticket' }).click();
    await page.getByRole('heading', { name: 'Walter wants a refund' }).waitFor();
    await page.getByRole('link', { name: 'Open the chat' }).click();
    await page
      .getByRole('note', { name: 'Tickets from this chat' })
      .getByRole('link', { name: /Walter wants a refund/ })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe(`/inbox/${latestId}`);
    await noSeriousViolations();
  });

  step('attaches an image to a reply and previews it in the thread', async () => {
    await page.goto(`${service}/inbox/${latestId}`);
    await page.getByRole('log', { name: 'Messages' }).getByText('one more question').waitFor();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach a file' }).click();
    await (await chooser).setFiles({ name: 'parcel.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('group', { name: 'Attached files' }).getByText('parcel.png').waitFor();
    await noSeriousViolations();
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('Here is the parcel label.');
    await reply.press('Enter');
    const image = page
      .getByRole('log', { name: 'Messages' })
      .getByRole('img', { name: 'Image: parcel.png' });
    await image.waitFor();
    await eventually(async () =>
      // The test's types have no DOM: the element is an <img> in the page.
      image.evaluate((element) => {
        const img = element as unknown as { complete: boolean; naturalWidth: number };
        return img.complete && img.naturalWidth === 1;
      }),
    );
    await expect(page.getByRole('group', { name: 'Attached files' }).count()).resolves.toBe(0);
    await page.screenshot({ path: 'docs/dashboard-conversation.png' });
    const messages = await request(app.url)
      .get(`/api/agent/conversations/${latestId}`)
      .set(agentApi())
      .expect(200);
    const sent = (
      messages.body as {
        data: { messages: { body: string; attachments: { file_name: string }[] }[] };
      }
    ).data.messages.find((m) => m.body === 'Here is the parcel label.');
    expect(sent?.attachments.map((a) => a.file_name)).toEqual(['parcel.png']);

    // The upload route takes a form with the session cookie only from the dashboard's origin.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'scs_session');
    expect(cookie).toBeDefined();
    const foreign = await request(app.url)
      .post('/api/agent/attachments')
      .set('Cookie', `scs_session=${cookie?.value}`)
      .set('Origin', 'http://localhost:1')
      .attach('file', png, 'parcel.png')
      .expect(403);
    expect((foreign.body as { message: string }).message).toBe(
      'Requests with the session cookie must come from the dashboard.',
    );
    await request(app.url)
      .post('/api/agent/attachments')
      .set('Cookie', `scs_session=${cookie?.value}`)
      .set('Origin', service)
      .attach('file', png, 'parcel.png')
      .expect(201);
  });

  step('finds a message with the search page', async () => {
    await page.goto(`${service}/inbox`);
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Search text').fill('order 1234');
    await page.getByLabel('Search text').press('Enter');
    const results = page.getByRole('region', { name: 'Results' });
    const hit = results.getByRole('listitem').filter({ hasText: 'It was order 1234.' });
    await hit.waitFor();
    // The hit names the visitor who wrote it.
    await hit.getByRole('link', { name: /^Message from (?!a visitor)/ }).waitFor();
    await noSeriousViolations();
    await page.getByRole('radio', { name: 'Tickets' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByText('Tickets', { exact: true }).last().click();
    await results.getByRole('link', { name: /Order 1234 never arrived/ }).click();
    await page.getByRole('heading', { name: 'Order 1234 never arrived' }).waitFor();
  });

  step('changes the password on the account page', async () => {
    await page.goto(`${service}/inbox`);
    await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).click();
    await page.getByRole('menuitem', { name: 'Profile and security' }).click();
    // axe runs on the page, not on the account menu while it fades out.
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await page.getByLabel('Current password').fill(owner.password);
    await page.getByLabel('New password').fill('a much newer passphrase');
    await noSeriousViolations();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password was changed.', { exact: false }).waitFor();
    await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: owner.email, password: 'a much newer passphrase' })
      .expect(200);
  });
});
