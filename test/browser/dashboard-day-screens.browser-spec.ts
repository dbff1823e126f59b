import os from 'node:os';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, uniqueEmail } from '../factories/identity';
import { eventually } from '../utils/app-process';
import {
  browserAvailable,
  screenshotOnFailure,
  layoutSettled,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * How far the page scrolls sideways, and the last elements sticking out of it that no box of
 * their own scrolls or clips (run in the page: the tests are compiled without the DOM's types).
 */
const SIDEWAYS = `(() => {
  const width = document.documentElement.clientWidth;
  const clipped = (element) => {
    for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const by = document.documentElement.scrollWidth - width;
  const wider = by > 0
    ? [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > width + 1 && !clipped(element))
        .slice(-3)
        .map((element) => element.tagName.toLowerCase() + '.' + element.className + ': ' +
          (element.textContent || '').slice(0, 40))
    : [];
  return { by, wider };
})()`;

/**
 * An agent's whole day, page by page (issue 26), as the owner and as an agent, on a desktop and
 * on a phone: the inbox with a chat open and its visitor panel, the tickets and a ticket, the
 * appointments, and the settings an agent may open (or is told whose they are). Each page is
 * axe-checked, has no sideways scrolling, and is photographed for a person to look at.
 */
describeIfBrowser('the dashboard: a day, page by page', () => {
  let suite: DashboardSuite;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  let conversationId = 0;
  let ticketId = 0;
  const step = screenshotOnFailure('dashboard-day-screens', () => page);
  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });

  beforeAll(async () => {
    ({ browser, service, owner } = suite = await startDashboardSuite());
    const url = suite.app.url;
    const created = await request(url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;
    const session = await request(url)
      .post('/api/widget/init')
      .send({
        widget_key: owner.site.widget_key,
        visitor_name: 'Vera Visitor',
        visitor_email: 'vera@example.com',
      })
      .expect(200);
    conversationId = session.body.conversation_id as number;
    await request(url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.body.session_token as string}`)
      .send({ body: 'Hello! My parcel has not arrived yet, order 10442. Can you check it?' })
      .expect(201);
    await request(url)
      .post(`/api/agent/conversations/${conversationId}/assign`)
      .set(asOwner())
      .send({ agent_id: agent.id })
      .expect(200);
    await request(url)
      .post(`/api/agent/conversations/${conversationId}/messages`)
      .set(asOwner())
      .send({ body: 'Thanks Vera, Ada will look into it right away.' })
      .expect(201);
    const ticket = await request(url)
      .post('/api/agent/tickets')
      .set(asOwner())
      .send({
        subject: 'Parcel 10442 not delivered',
        description: 'Vera asks where the parcel is; the carrier shows no scan since Monday.',
        assigned_agent_id: agent.id,
        priority: 'high',
      })
      .expect(201);
    ticketId = ticket.body.data.id as number;
    await request(url)
      .patch('/api/agent/appointment-settings')
      .set(asOwner())
      .send({
        enabled: true,
        working_hours: Object.fromEntries(
          DAYS.map((name) => [name, [{ start: '09:00', end: '17:00' }]]),
        ),
      })
      .expect(200);
    const day = new Date(Date.now() + 2 * 24 * 3600_000).toISOString().slice(0, 10);
    const booker = await request(url)
      .post('/api/widget/init')
      .send({ widget_key: owner.site.widget_key, visitor_name: 'Bea Booker' })
      .expect(200);
    const slots = (
      await request(url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: owner.site.widget_key, date: day })
        .expect(200)
    ).body.slots as { starts_at: string; available: boolean }[];
    await request(url)
      .post('/api/widget/appointments/book')
      .set('Authorization', `Bearer ${booker.body.session_token as string}`)
      .send({
        scheduled_at: slots.find((slot) => slot.available)!.starts_at,
        visitor_name: 'Bea Booker',
      })
      .expect(201);
  });

  afterAll(() => suite?.stop());

  /** Looks at one page at both widths: axe, no sideways scrolling, a picture of each. */
  const look = async (name: string, role: string, ready: (p: Page) => Promise<unknown>) => {
    for (const width of [1440, 390]) {
      await page!.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // The page as it rests at the new width, not a step of its reflow.
      await layoutSettled(page!);
      await ready(page!);
      expect(await seriousAxeViolations(page!)).toEqual([]);
      // Nothing wider than the screen: the page does not scroll sideways (the elements that
      // stick out are named when it does).
      const overflow = await page!.evaluate<{ by: number; wider: string[] }>(SIDEWAYS);
      expect({ name, width, overflow }).toEqual({ name, width, overflow: { by: 0, wider: [] } });
      await page!.screenshot({ path: `${SHOTS}/${name}-${role}-${width}.png` });
    }
    await page!.setViewportSize({ width: 1440, height: 900 });
  };

  const tour = (role: 'owner' | 'agent') => async () => {
    if (role === 'agent') await suite.logIn(agent);
    else await suite.logIn();
    await page?.close();
    page = await browser.newPage();
    await page.goto(`${service}/inbox/${conversationId}`);
    await look('inbox', role, (p) =>
      p
        .getByRole('region', { name: /Vera Visitor/ })
        .getByText('order 10442')
        .first()
        .waitFor(),
    );
    await look('visitor-panel', role, async (p) => {
      // Beside the chat on a desktop; on a phone, a drawer its button opens.
      const wide = (p.viewportSize()?.width ?? 0) > 1100;
      if (!wide) await p.getByRole('button', { name: 'Visitor details' }).click();
      const panel = wide
        ? p.getByRole('complementary', { name: 'Visitor' })
        : p.getByRole('dialog', { name: 'Visitor details' });
      await panel.getByText('vera@example.com').first().waitFor();
      // The drawer has finished sliding in (axe measures colours as they are drawn).
      await eventually(async () => p.evaluate<boolean>('document.getAnimations().length === 0'));
    });
    await page.keyboard.press('Escape');
    await page.goto(`${service}/tickets`);
    await look('tickets', role, (p) =>
      p
        .getByRole('link', { name: /Parcel 10442 not delivered/ })
        .first()
        .waitFor(),
    );
    await page.goto(`${service}/tickets/${ticketId}`);
    await look('ticket', role, (p) =>
      p
        .getByRole('heading', { name: /Parcel 10442 not delivered/ })
        .first()
        .waitFor(),
    );
    await page.goto(`${service}/appointments`);
    await look('appointments', role, (p) => p.getByText('Bea Booker').first().waitFor());
    for (const section of ['sites', 'team', 'install']) {
      await page.goto(`${service}/settings/${section}`);
      await look(`settings-${section}`, role, (p) =>
        p.getByRole('heading', { level: 2 }).first().waitFor(),
      );
    }
  };

  step('as the owner', tour('owner'));
  step('as an agent', tour('agent'));
});
