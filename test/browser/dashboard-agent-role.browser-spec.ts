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
 * The dashboard as an `agent`-role member uses it (issue 26): colleagues, sites and authors are
 * named, the owners' settings pages say whose they are, the appointment rules are read-only and
 * the presence the agent chose survives a reload.
 */
describeIfBrowser('the dashboard for an agent', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let page: Page;
  let owner: Registered;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  let conversationId = 0;
  let visitorToken = '';
  let ticketId = 0;

  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });
  const noSeriousViolations = async () =>
    expect(JSON.stringify(await seriousAxeViolations(page), null, 1)).toBe('[]');
  const shoot = screenshotOnFailure('dashboard-agent-role', () => page);
  /** Each step on a page of its own (one session cookie): one step's failure stays its own. */
  const step = (name: string, body: () => Promise<void>) =>
    shoot(name, async () => {
      await page?.close();
      page = await browser.newPage();
      await body();
    });

  beforeAll(async () => {
    ({ app, service, browser, owner } = suite = await startDashboardSuite());
    const created = await request(app.url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;

    // A chat the owner answered and holds, and a ticket the owner gave the agent.
    const session = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: owner.site.widget_key, visitor_name: 'Vera Visitor' })
      .expect(200);
    conversationId = session.body.conversation_id as number;
    visitorToken = session.body.session_token as string;
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${visitorToken}`)
      .send({ body: 'Where is my parcel?' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${conversationId}/assign`)
      .set(asOwner())
      .send({ agent_id: owner.user.id })
      .expect(200);
    await request(app.url)
      .post(`/api/agent/conversations/${conversationId}/messages`)
      .set(asOwner())
      .send({ body: 'It left our warehouse today.' })
      .expect(201);
    const ticket = await request(app.url)
      .post('/api/agent/tickets')
      .set(asOwner())
      .send({
        subject: 'Parcel lost',
        description: 'Vera asks where the parcel is.',
        assigned_agent_id: agent.id,
      })
      .expect(201);
    ticketId = ticket.body.data.id as number;

    await suite.logIn(agent);
  });

  afterAll(() => suite?.stop());

  step('tells an agent at an owners-only settings address whose page it is', async () => {
    for (const section of ['team', 'organization', 'webhooks']) {
      await page.goto(`${service}/settings/${section}`);
      await page
        .getByRole('heading', { name: 'Only owners and admins', level: 2 })
        .waitFor({ timeout: 10_000 });
      expect(new URL(page.url()).pathname).toBe(`/settings/${section}`);
      await page.getByText('This page is managed by the owners and admins of Acme.').waitFor();
    }
    await page.getByRole('link', { name: 'Back to the inbox' }).waitFor();
    await noSeriousViolations();
  });

  step("names the colleague holding a chat, the reply's author and the chat's site", async () => {
    await page.goto(`${service}/inbox/${conversationId}`);
    const chat = page.getByRole('region', { name: /Vera Visitor/ });
    await chat.getByText('Assigned to Olivia Owner').waitFor();
    await chat.getByText(/^Olivia Owner · /).waitFor();
    const panel = page.getByRole('complementary', { name: 'Visitor' });
    const site = panel.locator('dt', { hasText: 'Site' }).locator('xpath=following-sibling::dd');
    // The site's name comes with the site directory, which may arrive after the panel is drawn.
    await eventually(async () => (await site.textContent()) === 'Acme', 15_000);
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.getByRole('menuitem', { name: 'Assign to Olivia Owner' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await noSeriousViolations();
  });

  step("takes a colleague's chat from them and gives it back", async () => {
    await page.goto(`${service}/inbox/${conversationId}`);
    const chat = page.getByRole('region', { name: /Vera Visitor/ });
    await chat.getByText('Assigned to Olivia Owner').waitFor();
    await chat.getByRole('button', { name: 'Assign' }).click();
    await page.getByRole('menuitem', { name: 'Unassign' }).click();
    await chat.getByText('Unassigned', { exact: true }).waitFor();
    const held = await request(app.url)
      .get(`/api/agent/conversations/${conversationId}`)
      .set(asOwner())
      .expect(200);
    expect(held.body.data.assigned_agent_id).toBeNull();
    // Nobody holds it: no Unassign to offer.
    await chat.getByRole('button', { name: 'Assign' }).click();
    await page.getByRole('menuitem', { name: 'Assign to me' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Unassign' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Assign to Olivia Owner' }).click();
    await chat.getByText('Assigned to Olivia Owner').waitFor();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await noSeriousViolations();
  });

  step('reopens a closed conversation', async () => {
    await request(app.url)
      .post(`/api/agent/conversations/${conversationId}/close`)
      .set(asOwner())
      .expect(200);
    await page.goto(`${service}/inbox/${conversationId}`);
    const chat = page.getByRole('region', { name: /Vera Visitor/ });
    await chat.getByText('This conversation is closed.').waitFor();
    await chat.getByRole('button', { name: 'Reopen' }).click();
    await chat.getByRole('button', { name: 'Close' }).waitFor();
    await chat.getByRole('textbox', { name: 'Reply', exact: true }).waitFor();
    const reopened = await request(app.url)
      .get(`/api/agent/conversations/${conversationId}`)
      .set(asOwner())
      .expect(200);
    expect(reopened.body.data).toMatchObject({
      status: 'active',
      assigned_agent_id: owner.user.id,
      closed_at: null,
    });
    await noSeriousViolations();
  });

  step("lists the team in a ticket's assignee picker and names agents in reports", async () => {
    await page.goto(`${service}/tickets/${ticketId}`);
    const assignee = page.getByRole('combobox', { name: 'Assignee' });
    await assignee.waitFor();
    // The picker is drawn before the team directory arrives; then it shows the assignee.
    await eventually(async () => (await assignee.inputValue()) === String(agent.id), 15_000);
    expect(await assignee.locator('option').allTextContents()).toEqual([
      'Unassigned',
      'Olivia Owner',
      'Ada Agent',
    ]);
    await noSeriousViolations();

    await page.goto(`${service}/reports`);
    // Every report's per-agent table names the owner, none says "Agent 1".
    const perAgent = page.getByRole('table', { name: 'Per agent' });
    await perAgent.first().getByRole('cell', { name: 'Olivia Owner' }).waitFor();
    expect(await page.getByRole('cell', { name: /^Agent \d+$/ }).count()).toBe(0);
    const perSite = page.getByRole('table', { name: 'Per site' });
    await perSite.first().getByRole('cell', { name: 'Acme' }).waitFor();
    await noSeriousViolations();
  });

  step('shows an agent the appointment rules read-only', async () => {
    await page.goto(`${service}/settings/appointments`);
    const form = page.getByRole('form', { name: 'Booking settings' });
    await form.getByText('Only owners and admins can change these settings.').waitFor();
    expect(
      await form.getByRole('switch', { name: 'Visitors may book appointments' }).isDisabled(),
    ).toBe(true);
    expect(await form.getByRole('textbox', { name: 'Duration (minutes)' }).isDisabled()).toBe(true);
    expect(await form.getByRole('button', { name: 'Save appointment settings' }).count()).toBe(0);
    await noSeriousViolations();
  });

  step('keeps Away when the agent opens the dashboard again', async () => {
    const live = page.getByRole('status').filter({ hasText: 'Live' });
    await page.goto(`${service}/inbox`);
    await live.waitFor();
    const presence = page.getByRole('radiogroup', { name: 'Your status' });
    await presence.locator('label').filter({ hasText: 'Away' }).click();
    await eventually(async () => (await serverStatus()) === 'away');

    await page.reload();
    // Once live, the socket's connect has set the presence: it is still the one chosen.
    await live.waitFor();
    expect(await serverStatus()).toBe('away');
    await eventually(() => presence.getByRole('radio', { name: 'Away' }).isChecked());
    await noSeriousViolations();
  });

  step(
    "shows the visitor's rating and comment in the conversation and the visitor panel",
    async () => {
      await request(app.url)
        .post(`/api/agent/conversations/${conversationId}/close`)
        .set(asOwner())
        .expect(200);
      await request(app.url)
        .post('/api/widget/reviews')
        .set('Authorization', `Bearer ${visitorToken}`)
        .send({ rating: 4, comment: 'Quick, thank you' })
        .expect(201);
      await page.goto(`${service}/inbox/${conversationId}`);
      const rated = 'Rated 4 of 5: “Quick, thank you”';
      const chat = page.getByRole('region', { name: /Vera Visitor/ });
      await chat.getByRole('note', { name: "The visitor's rating" }).getByText(rated).waitFor();
      const panel = page.getByRole('complementary', { name: 'Visitor' });
      const rating = panel
        .locator('dt', { hasText: /^Rating$/ })
        .locator('xpath=following-sibling::dd');
      expect(await rating.textContent()).toBe(rated);
      await noSeriousViolations();
    },
  );

  /** The agent's presence as the server holds it. */
  async function serverStatus(): Promise<string> {
    const answer = await page.request.get(`${service}/api/agent/me`);
    return ((await answer.json()) as { user: { status: string } }).user.status;
  }
});
