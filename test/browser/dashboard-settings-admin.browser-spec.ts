import { DateTime } from 'luxon';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { seriousAxeViolations, browserAvailable, type TestBrowser } from '../utils/browser';
import { pool } from '../utils/database';
import { createOwnerDatabase, type OwnerDatabase } from '../utils/owner-database';
import { startReceiver } from '../utils/webhook-receiver';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR;

/** The settings area as an owner uses it, page by page, checked against the API. */
describeIfBrowser('dashboard settings', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page;
  let shop: OwnerDatabase;

  const asOwner = () => ({ Authorization: `Bearer ${owner.token}` });

  const expectAccessible = async () => {
    expect(await seriousAxeViolations(page)).toEqual([]);
  };

  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

  /** The message a field is described by once the API refused it (Mantine's `error`). */
  const fieldError = async (field: Locator): Promise<string> => {
    await field.and(page.locator('[aria-invalid="true"]')).waitFor();
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(
      ids
        .split(' ')
        .filter(Boolean)
        .map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    return texts.join(' ');
  };

  /** Screenshots to look at, when SCREENSHOT_DIR is set: 1440 and 390 px wide. */
  async function pictures(name: string) {
    if (!SHOTS) return;
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  beforeAll(async () => {
    shop = await createOwnerDatabase();
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      env: { WEBHOOK_ALLOW_INSECURE: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '200,400' },
      loggedIn: true,
      viewport: null,
    }));
    page = await browser.newPage();
  });

  afterAll(async () => {
    await suite?.stop();
    await shop?.drop();
  });

  it('names the organization and switches on automatic assignment', async () => {
    await page.goto(`${service}/settings`);
    await page.getByRole('heading', { name: 'Organization', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/organization');
    const form = page.getByRole('form', { name: 'Organization' });
    await form.getByRole('textbox', { name: 'Organization name' }).fill('Acme Support');
    await form.getByRole('switch', { name: 'Assign new chats automatically' }).check();
    await form.getByRole('textbox', { name: 'Capacity per agent' }).fill('3');
    await form.getByRole('button', { name: 'Save organization' }).click();
    await status('Your changes were saved.').waitFor();
    const organization = await request(app.url)
      .get('/api/agent/organization')
      .set(asOwner())
      .expect(200);
    expect(organization.body.data).toMatchObject({
      name: 'Acme Support',
      auto_assignment: { enabled: true, capacity: 3 },
    });
    await expectAccessible();
  });

  it('invites by mail, shows a 422 next to its field, and changes a role', async () => {
    // Invitations wait for the owner's confirmed address (the accounts browser test mails it).
    const db = pool(suite.databaseUrl);
    await db.query(`UPDATE logins SET email_verified_at = now()`);
    await db.end();
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team', level: 2 }).waitFor();

    const form = page.getByRole('form', { name: 'Invite a teammate' });
    await form.getByRole('textbox', { name: 'Email' }).fill(owner.user.email);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    // The field the API names shows the dashboard's sentence for the API's reason
    // (`already_member`), not the API's English text (issue 32).
    const email = form.getByRole('textbox', { name: 'Email' });
    expect(await fieldError(email)).toBe('This person is already on the team.');
    await pictures('settings-team-reason');

    await email.fill('ivy@example.test');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await status('An invitation was mailed to ivy@example.test.').waitFor();
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: 'ivy@example.test', exact: true }).waitFor();

    // A member added over the API (the CLI's way) has its role changed here.
    await request(app.url)
      .post('/api/agent/team')
      .set(asOwner())
      .send({
        name: 'Tess Teammate',
        email: 'tess@example.test',
        role: 'agent',
        password: 'correct horse battery',
      })
      .expect(201);
    await page.reload();
    await page.getByRole('cell', { name: 'tess@example.test', exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Role of Tess Teammate' }).click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await status('The role of Tess Teammate was changed.').waitFor();
    await eventually(async () => {
      const after = await request(app.url).get('/api/agent/team').set(asOwner()).expect(200);
      const member = (after.body.data as { email: string; role: string }[]).find(
        (m) => m.email === 'tess@example.test',
      );
      return member?.role === 'admin';
    });
    await expectAccessible();
  });

  it('sets up a site: domains, the pre-chat form, the snippet and its demo page', async () => {
    await page.getByRole('link', { name: 'Sites' }).click();
    await page
      .getByRole('link', { name: /^Edit / })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Install the widget' }).waitFor();

    // The Domain is optional: left empty, the allowed domains are saved all the same.
    const details = page.getByRole('form', { name: 'Details' });
    await details.getByRole('textbox', { name: 'Domain' }).fill('');
    const allowed = details.getByRole('combobox', { name: 'Allowed domains' });
    await allowed.fill('shop.example.test');
    await allowed.press('Enter');
    await allowed.fill('*.example.test');
    await allowed.press('Enter');
    await details.getByRole('button', { name: 'Save details' }).click();
    await status('Your changes were saved.').waitFor();
    const site = await request(app.url)
      .get(`/api/agent/sites/${owner.site.id}`)
      .set(asOwner())
      .expect(200);
    expect(site.body.data).toMatchObject({
      domain: null,
      allowed_domains: ['shop.example.test', '*.example.test'],
    });

    // The pre-chat form: a duplicate key is refused with the catalog's sentence, then a custom field.
    const prechat = page.getByRole('form', { name: 'Pre-chat form' });
    await prechat.getByRole('switch', { name: 'Ask before the chat starts' }).check();
    await prechat.getByRole('button', { name: 'Add custom field' }).click();
    await prechat
      .getByRole('group', { name: 'Field New field' })
      .getByRole('textbox', { name: 'Label' })
      .fill('Order number');
    const custom = prechat.getByRole('group', { name: 'Field Order number' });
    await custom.getByRole('textbox', { name: 'Key' }).fill('email');
    await prechat.getByRole('button', { name: 'Save pre-chat form' }).click();
    await prechat
      .getByRole('alert')
      .filter({ hasText: 'Give each field its own key: two fields share one.' })
      .waitFor();
    await prechat
      .getByRole('group', { name: 'Field Order number' })
      .getByRole('textbox', { name: 'Key' })
      .fill('order_number');
    await prechat.getByRole('button', { name: 'Save pre-chat form' }).click();
    await status('Your changes were saved.').waitFor();
    const saved = await request(app.url)
      .get(`/api/agent/sites/${owner.site.id}`)
      .set(asOwner())
      .expect(200);
    expect(saved.body.data.widget_settings.pre_chat_form).toMatchObject({
      enabled: true,
      fields: [
        { key: 'name', builtin: true },
        { key: 'email', builtin: true },
        { key: 'order_number', label: 'Order number', type: 'text', builtin: false },
      ],
    });

    // The snippet carries this site's key, and the demo page runs the widget.
    const snippet = page.getByText(`data-widget-key="${owner.site.widget_key}"`);
    await snippet.waitFor();
    expect(await snippet.textContent()).toContain(`${service}/widget.js`);
    await page.getByRole('button', { name: 'Copy Install snippet' }).waitFor();
    await expectAccessible();
    const [demo] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Open the demo page' }).click(),
    ]);
    await demo.getByRole('button', { name: 'Open chat' }).waitFor({ timeout: 15_000 });
    await demo.close();

    // The widget's look.
    const look = page.getByRole('form', { name: 'Widget look' });
    await look.getByRole('textbox', { name: 'Launcher label' }).fill('Talk to us');
    await look.getByRole('button', { name: 'Save widget look' }).click();
    await eventually(async () => {
      const after = await request(app.url)
        .get(`/api/agent/sites/${owner.site.id}`)
        .set(asOwner())
        .expect(200);
      return after.body.data.widget_settings.appearance?.launcher_label === 'Talk to us';
    });
  });

  it('creates an API key shown once, which works until it is revoked', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    const form = page.getByRole('form', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('CRM sync');
    await form.getByRole('checkbox', { name: 'sites:read' }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('alert').filter({ hasText: 'The key "CRM sync" was created' });
    await shown.waitFor();
    const key = (await shown.locator('pre').textContent())!.trim();
    expect(key.length).toBeGreaterThan(20);
    await shown.getByRole('button', { name: 'Copy API key' }).waitFor();

    await request(app.url).get('/api/v1/sites').set('Authorization', `Bearer ${key}`).expect(200);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'CRM sync' });
    await row.getByText('sites:read').waitFor();
    expect(await row.textContent()).not.toContain('Never');
    await expectAccessible();

    await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await status('The key was revoked.').waitFor();
    await request(app.url).get('/api/v1/sites').set('Authorization', `Bearer ${key}`).expect(401);
    await page.getByText('No API keys yet.').waitFor();
  });

  it("shows a webhook's failed delivery and its successful redelivery, attempt by attempt", async () => {
    const receiver = await startReceiver((_, index) =>
      index === 0 ? { status: 500, body: 'database down' } : { status: 200, body: 'thanks' },
    );
    try {
      await page.getByRole('link', { name: 'Webhooks' }).click();
      const form = page.getByRole('form', { name: 'Add an endpoint' });
      await form.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
      await form.getByRole('checkbox', { name: 'ticket.created' }).check();
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      const created = page.getByRole('alert').filter({ hasText: 'The endpoint was added' });
      await created.waitFor();
      expect(await created.locator('pre').textContent()).toMatch(/^whsec_/);
      await created.getByRole('link', { name: /^Open / }).click();

      await page.getByRole('button', { name: 'Send test ping' }).click();
      // A failed ping is announced as a failure (an alert), not as a success.
      await page
        .getByRole('alert')
        .filter({ hasText: 'The test ping failed: the endpoint answered 500.' })
        .waitFor();
      expect(await status(/test ping/).count()).toBe(0);
      const delivery = page.getByRole('article', { name: /^Delivery webhook.ping/ });
      await delivery.getByRole('cell', { name: 'database down' }).waitFor();
      await delivery.getByRole('button', { name: 'Redeliver webhook.ping' }).click();
      await delivery.getByText('Succeeded').waitFor({ timeout: 15_000 });
      await delivery.getByRole('cell', { name: 'thanks' }).waitFor();
      const attempts = delivery.getByRole('row');
      expect(await attempts.count()).toBe(3); // the header and two attempts
      expect(await attempts.nth(1).textContent()).toContain('500');
      expect(await attempts.nth(2).textContent()).toContain('200');
      expect(receiver.received).toHaveLength(2);
      await expectAccessible();
    } finally {
      await receiver.close();
    }
  });

  it('tests the data-lookup connection and lists each table and column checked', async () => {
    await page.getByRole('link', { name: 'Data lookup' }).click();
    const table = page.getByRole('group', { name: 'Account table' }).getByRole('textbox', {
      name: 'Table',
    });
    await page.getByLabel('Connection URL').fill(shop.readerUrl);
    await table.fill('shoppers');
    await page.getByLabel('Key column').fill('id');
    const lookup = page.getByRole('combobox', { name: 'Lookup columns' });
    await lookup.fill('email');
    await lookup.press('Enter');
    await page.getByLabel('Email column').fill('email');
    await page.getByLabel('Name column').fill('name');
    await page.getByRole('switch', { name: 'Data lookup on' }).check();
    await page.getByRole('button', { name: 'Save data lookup' }).click();
    // The catalog check refuses the table that does not exist: the catalog's sentence, under it.
    expect(await fieldError(table)).toBe(
      'Enter a table that exists in the database: letters, digits and underscores (optionally schema.table).',
    );

    await table.fill('customers');
    await page.getByRole('button', { name: 'Save data lookup' }).click();
    await status(/every table and column was found/).waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByRole('status').filter({ hasText: 'The connection works' });
    await result.waitFor();
    const checked = result.getByRole('list', { name: 'Tables and columns checked' });
    expect(await checked.textContent()).toContain('customers: id, email, name');
    await expectAccessible();

    // A mailed code is asked by default (issue 25); turning it off says what that means.
    const requireCode = page.getByRole('switch', {
      name: 'Require a mailed code before showing records',
    });
    expect(await requireCode.isChecked()).toBe(true);
    const warning = page
      .getByRole('alert')
      .filter({ hasText: "Anyone who knows a customer's email address can log in as them" });
    expect(await warning.count()).toBe(0);
    await requireCode.uncheck();
    await warning.waitFor();
    await expectAccessible();
    await requireCode.check();
    await warning.waitFor({ state: 'detached' });
  });

  it('changes the appointment settings and confirms a booked appointment', async () => {
    // The settings section (the main navigation has an Appointments page too).
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Appointments' })
      .click();
    const form = page.getByRole('form', { name: 'Booking settings' });
    await form.getByRole('switch', { name: 'Visitors may book appointments' }).check();
    await form.getByLabel('Duration (minutes)').fill('45');
    await form.getByRole('button', { name: 'Add hours on Saturday' }).click();
    await form.getByLabel('Saturday until').fill('12:00');
    await form.getByRole('button', { name: 'Save appointment settings' }).click();
    await status('Your changes were saved.').waitFor();
    const settings = await request(app.url)
      .get('/api/agent/appointment-settings')
      .set(asOwner())
      .expect(200);
    expect(settings.body.settings).toMatchObject({
      enabled: true,
      duration_minutes: 45,
      working_hours: { saturday: [{ start: '09:00', end: '12:00' }] },
    });

    // A visitor books through the widget API; the owner confirms it in the list.
    const session = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: owner.site.widget_key })
      .expect(200);
    let day = DateTime.utc().startOf('day').plus({ days: 3 });
    while (day.weekday > 5) day = day.plus({ days: 1 });
    await request(app.url)
      .post('/api/widget/appointments/book')
      .set('Authorization', `Bearer ${session.body.session_token}`)
      .send({
        scheduled_at: `${day.toISODate()}T10:00:00Z`,
        visitor_name: 'Ada Lovelace',
        visitor_email: 'ada@example.test',
      })
      .expect(201);
    await page.reload();
    // A booking is confirmed as it is made; the owner notes it and marks it done.
    const booked = page.getByRole('form', { name: /^Appointment with Ada Lovelace/ });
    await booked.getByText('Confirmed', { exact: true }).waitFor();
    await booked.getByRole('combobox', { name: 'New status' }).click();
    await page.getByRole('option', { name: 'Completed' }).click();
    await booked.getByLabel('Notes').fill('Bring the order number.');
    await booked.getByRole('button', { name: 'Update' }).click();
    await status('The appointment with Ada Lovelace was updated.').waitFor();
    const list = await request(app.url).get('/api/agent/appointments').set(asOwner()).expect(200);
    expect(list.body.data[0]).toMatchObject({
      status: 'completed',
      notes: 'Bring the order number.',
    });
    await expectAccessible();
  });

  it('manages canned responses and labels', async () => {
    await page.getByRole('link', { name: 'Canned responses' }).click();
    const canned = page.getByRole('form', { name: 'Add a canned response' });
    await canned.getByRole('textbox', { name: 'Shortcut' }).fill('refund');
    await canned.getByRole('textbox', { name: 'Reply' }).fill('Refunds take 5 working days.');
    await canned.getByRole('button', { name: 'Add response' }).click();
    await status('/refund was added.').waitFor();
    await page.getByRole('cell', { name: 'Refunds take 5 working days.' }).waitFor();
    await expectAccessible();

    // Renamed in place: a dialog with the response's fields.
    await page.getByRole('button', { name: 'Edit /refund' }).click();
    const editCanned = page.getByRole('dialog', { name: 'Edit the canned response' });
    await editCanned.getByRole('textbox', { name: 'Shortcut' }).waitFor();
    // axe measures colours once the dialog has faded in (not half-transparent).
    await eventually(async () =>
      editCanned.evaluate(
        (element) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }
          ).getComputedStyle(element).opacity === '1',
      ),
    );
    await expectAccessible();
    await editCanned.getByRole('textbox', { name: 'Shortcut' }).fill('Refund!');
    await editCanned.getByRole('button', { name: 'Save changes' }).click();
    await editCanned.getByText(/^Enter a shortcut of lower-case letters/).waitFor();
    await editCanned.getByRole('textbox', { name: 'Shortcut' }).fill('refunds');
    await editCanned.getByRole('textbox', { name: 'Reply' }).fill('Refunds take 3 working days.');
    await editCanned.getByRole('button', { name: 'Save changes' }).click();
    await status('/refunds was saved.').waitFor();
    await editCanned.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Refunds take 3 working days.' }).waitFor();
    const cannedSaved = await request(app.url)
      .get('/api/agent/canned-responses')
      .set(asOwner())
      .expect(200);
    expect(cannedSaved.body.data).toMatchObject([
      { shortcut: 'refunds', body: 'Refunds take 3 working days.' },
    ]);

    await page.getByRole('link', { name: 'Labels' }).click();
    const labels = page.getByRole('form', { name: 'Add a label' });
    await labels.getByRole('textbox', { name: 'Label name' }).fill('billing');
    await labels.getByRole('button', { name: 'Add label' }).click();
    await status('The label billing was added.').waitFor();
    const saved = await request(app.url).get('/api/agent/labels').set(asOwner()).expect(200);
    expect(saved.body.data).toMatchObject([{ name: 'billing' }]);
    await page.getByRole('button', { name: 'Edit label billing' }).click();
    const editLabel = page.getByRole('dialog', { name: 'Rename the label' });
    await editLabel.getByRole('textbox', { name: 'Label name' }).fill('invoices');
    await editLabel.getByRole('button', { name: 'Save changes' }).click();
    await status('The label invoices was saved.').waitFor();
    const renamed = await request(app.url).get('/api/agent/labels').set(asOwner()).expect(200);
    expect(renamed.body.data).toMatchObject([{ name: 'invoices' }]);
    await page.getByRole('button', { name: 'Remove label invoices' }).click();
    await page
      .getByRole('dialog', { name: 'Remove this label?' })
      .getByRole('button', { name: 'Remove label' })
      .click();
    await status('The label was removed.').waitFor();
    await expectAccessible();
  });

  it('lists every label, past the first page of the API', async () => {
    // 105 labels: more than the API's default page (50) and its largest (100).
    for (let i = 1; i <= 105; i += 1) {
      await request(app.url)
        .post('/api/agent/labels')
        .set(asOwner())
        .send({ name: `topic-${String(i).padStart(3, '0')}`, color: '#336699' })
        .expect(201);
    }
    await page.goto(`${service}/settings/labels`);
    await page.getByRole('button', { name: 'Edit label topic-105' }).waitFor();
    await page.getByRole('button', { name: 'Edit label topic-001' }).waitFor();
    expect(await page.getByRole('button', { name: /^Edit label topic-/ }).count()).toBe(105);
  });

  it('generates the trusted-login secret once and switches it on', async () => {
    await page.getByRole('link', { name: 'Trusted login' }).click();
    await page.getByRole('button', { name: 'Generate secret' }).click();
    const secret = page.getByRole('alert').filter({ hasText: 'The new secret' });
    await secret.waitFor();
    expect((await secret.locator('pre').textContent())!.length).toBeGreaterThan(20);
    await page.getByRole('switch', { name: 'Trusted login on' }).click();
    await status('Trusted login was switched on.').waitFor();
    const state = await request(app.url)
      .get('/api/agent/visitor-trusted-login')
      .set(asOwner())
      .expect(200);
    expect(state.body.trusted_login).toMatchObject({ enabled: true, secret_configured: true });
    await expectAccessible();

    // A new secret replaces the working one: asked first, and Cancel keeps it.
    const prefix = state.body.trusted_login.secret_prefix as string;
    await page.getByRole('button', { name: 'Generate a new secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Replace the trusted-login secret?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    const kept = await request(app.url)
      .get('/api/agent/visitor-trusted-login')
      .set(asOwner())
      .expect(200);
    expect(kept.body.trusted_login.secret_prefix).toBe(prefix);
    await page.getByRole('button', { name: 'Generate a new secret' }).click();
    await confirm.getByRole('button', { name: 'Generate a new secret' }).click();
    await eventually(async () => {
      const now = await request(app.url)
        .get('/api/agent/visitor-trusted-login')
        .set(asOwner())
        .expect(200);
      return now.body.trusted_login.secret_prefix !== prefix;
    });
  });
});
