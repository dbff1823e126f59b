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
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * The Appointments page (issue 26): in the navigation for every member; a week as a list or a
 * calendar, filtered by status; an appointment's status and notes changed in a dialog.
 */
describeIfBrowser('the dashboard: the Appointments page', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  let day: string;
  const agent = { id: 0, name: 'Ada Agent', email: uniqueEmail('ada'), password: 'pw-ada-agent' };
  const step = screenshotOnFailure('dashboard-appointments', () => page);
  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });
  const ids: Record<string, number> = {};

  /** A visitor books the `index`-th free slot of `day` under `name`. */
  const book = async (name: string, index: number) => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, visitor_name: name })
        .expect(200)
    ).body as { session_token: string };
    const slots = (
      await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: owner.site.widget_key, date: day })
        .expect(200)
    ).body.slots as { starts_at: string; available: boolean }[];
    const free = slots.filter((slot) => slot.available);
    const booked = await request(app.url)
      .post('/api/widget/appointments/book')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ scheduled_at: free[index].starts_at, visitor_name: name })
      .expect(201);
    ids[name] = booked.body.appointment.id as number;
  };

  beforeAll(async () => {
    suite = await startDashboardSuite({ organization: 'Acme Appointments' });
    ({ app, browser, service, owner } = suite);
    const created = await request(app.url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({ ...agent, role: 'agent' })
      .expect(201);
    agent.id = created.body.data.id as number;
    // Every day open, so the test does not depend on the weekday it runs on.
    await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set(asOwner())
      .send({
        enabled: true,
        working_hours: Object.fromEntries(
          DAYS.map((name) => [name, [{ start: '09:00', end: '17:00' }]]),
        ),
      })
      .expect(200);
    day = new Date(Date.now() + 2 * 24 * 3600_000).toISOString().slice(0, 10);
    await book('Bea Booker', 0);
    await book('Cal Caller', 2);
  });

  afterAll(() => suite?.stop());

  const logIn = async (who: { email: string; password: string; name: string }) => {
    await page?.close();
    await browser.context.clearCookies();
    page = await browser.newPage();
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: `Account menu for ${who.name}` }).waitFor();
    return page;
  };
  async function pictures(on: Page, name: string) {
    for (const width of [1440, 390]) {
      await on.setViewportSize({ width, height: 900 });
      await on.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    await on.setViewportSize({ width: 1440, height: 900 });
  }

  step('an agent reaches it from the navigation and changes an appointment', async () => {
    const p = await logIn(agent);
    await p.getByRole('link', { name: 'Appointments' }).click();
    await p.getByRole('heading', { name: 'Appointments', level: 1 }).waitFor();
    await p.goto(`${service}/appointments?week=${day}`);
    const table = p.getByRole('table', { name: 'Appointments of the week' });
    await table.getByRole('row', { name: /Bea Booker/ }).waitFor();
    await table.getByRole('row', { name: /Cal Caller/ }).waitFor();
    await p.getByText('Times are in the site’s time zone, UTC.').waitFor();
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'appointments-list-agent');

    await p.getByRole('button', { name: 'Change the appointment with Bea Booker' }).click();
    const dialog = p.getByRole('dialog', { name: 'Appointment with Bea Booker' });
    await dialog.getByRole('combobox', { name: 'Status' }).selectOption('completed');
    await dialog.getByRole('textbox', { name: 'Notes (seen by agents only)' }).fill('Came early.');
    expect(await seriousAxeViolations(p)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await p
      .getByRole('status')
      .filter({ hasText: 'The appointment with Bea Booker was saved.' })
      .waitFor();
    const bea = table.getByRole('row', { name: /Bea Booker/ });
    await bea.getByText('Completed').waitFor();
    await bea.getByText('Came early.').waitFor();
    const listed = await request(app.url)
      .get(`/api/agent/appointments?from=${day}&to=${day}`)
      .set(asOwner())
      .expect(200);
    expect(listed.body.data.find((a: { id: number }) => a.id === ids['Bea Booker'])).toMatchObject({
      status: 'completed',
      notes: 'Came early.',
    });

    // Filtered by status: only Bea.
    await p.getByRole('combobox', { name: 'Status' }).selectOption('completed');
    await table.getByRole('row', { name: /Cal Caller/ }).waitFor({ state: 'detached' });
    await table.getByRole('row', { name: /Bea Booker/ }).waitFor();
  });

  step('the week calendar shows each day, and an appointment opens from it', async () => {
    const p = await logIn({
      email: owner.user.email,
      password: owner.password,
      name: owner.user.name,
    });
    await p.goto(`${service}/appointments?week=${day}`);
    // The view switch is a radio group (its inputs hidden behind their labels).
    await p.getByRole('radiogroup', { name: 'Show as' }).getByText('Week', { exact: true }).click();
    // The click re-renders the page for the week view: wait for it.
    await eventually(async () => p.getByRole('radio', { name: 'Week' }).isChecked(), 15_000);
    const calendar = p.getByRole('region', { name: 'Week calendar' });
    const dayLabel = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      day: 'numeric',
      month: 'short',
    }).format(new Date(`${day}T12:00:00`));
    const column = calendar.getByRole('region', { name: dayLabel });
    await column.getByRole('button', { name: /Cal Caller/ }).waitFor();
    await column.getByRole('button', { name: /Bea Booker/ }).waitFor();
    expect(await calendar.getByRole('region').count()).toBe(7);
    expect(await seriousAxeViolations(p)).toEqual([]);
    await pictures(p, 'appointments-week-owner');
    await column.getByRole('button', { name: /Cal Caller/ }).click();
    await p.getByRole('dialog', { name: 'Appointment with Cal Caller' }).waitFor();

    // The next and previous weeks.
    await p.keyboard.press('Escape');
    await p.getByRole('button', { name: 'Next week' }).click();
    await column.waitFor({ state: 'detached' });
    await p.getByRole('button', { name: 'Previous week' }).click();
    await column.getByRole('button', { name: /Cal Caller/ }).waitFor();
  });
});
