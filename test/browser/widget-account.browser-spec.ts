import type { FrameLocator, Page } from 'playwright-core';
import type { Pool } from 'pg';
import request from 'supertest';
import { registerOrganization as register, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import {
  browserAvailable,
  hostPage,
  launchBrowser,
  startHostSite,
  type TestBrowser,
  typeInto,
  openChat,
} from '../utils/browser';
import { dataLookupClient } from '../utils/data-lookup-client';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import {
  ADA,
  createOwnerDatabase,
  type OwnerDatabase,
  shopSettings,
} from '../utils/owner-database';
import { codeOf, type SmtpCapture, startSmtp } from '../utils/smtp';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;

/** A new organization whose owner is online (else the widget offers the offline form). */
async function registerOrganization(appUrl: string, name?: string): Promise<Registered> {
  const org = await register(appUrl, name);
  await request(appUrl)
    .patch('/api/agent/presence')
    .set('Authorization', `Bearer ${org.token}`)
    .send({ status: 'online' })
    .expect(200);
  return org;
}

/**
 * The widget's account features in a real browser: login with the code mailed through a real SMTP
 * server, the record search and keyword replies over a real second PostgreSQL database (the
 * owner's shop), and booking an appointment.
 */
describeIfBrowser('the widget menu: account login, record search, lookup tables, booking', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let browser: TestBrowser;
  let service: string;
  let smtp: SmtpCapture;
  let owner: OwnerDatabase;
  let db: Pool;

  beforeAll(async () => {
    smtp = await startSmtp();
    owner = await createOwnerDatabase();
    databaseUrl = await createTestDatabase();
    app = await startApp({
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'shop@example.test',
      // One upcoming visitor booking per site until an agent handles it (issue 25).
      BOOKINGS_UNHANDLED_PER_SITE_MAX: '1',
    });
    db = pool(databaseUrl);
    service = `http://127.0.0.1:${app.port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await app?.stop();
    await dropTestDatabase(databaseUrl);
    await owner?.drop();
    await smtp?.close();
  });

  async function openWidget(
    org: Registered,
  ): Promise<{ page: Page; frame: FrameLocator; close(): Promise<void> }> {
    const site = await startHostSite({ '/': hostPage(service, org.site.widget_key) });
    const page = await browser.newPage();
    await page.goto(site.url);
    await openChat(page);
    const frame = page.frameLocator('iframe[title="Chat"]');
    await frame.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 15_000 });
    return {
      page,
      frame,
      async close() {
        await page.close();
        await site.close();
      },
    };
  }

  const openMenu = async (frame: FrameLocator, item: string) => {
    await frame.getByRole('button', { name: 'More options' }).click();
    await frame
      .getByRole('navigation', { name: 'More options' })
      .getByRole('button', { name: item })
      .click();
  };

  /** Picks the first day of `days` with a free slot (weekends and past hours have none). */
  const checkFirstFreeSlot = async (frame: FrameLocator, days: string[]) => {
    const day = frame.getByRole('combobox', { name: 'Day' });
    const slots = frame.getByRole('group', { name: /Available times/ });
    for (const value of days) {
      await day.selectOption(value);
      await slots
        .getByRole('radio')
        .first()
        .or(slots.getByText('No free times on this day.'))
        .waitFor();
      if ((await slots.getByRole('radio').count()) > 0) break;
    }
    await slots.getByRole('radio').first().check();
  };

  it('logs in with the mailed code, searches records, pages a keyword reply table and runs a row action, logs out', async () => {
    const org = await registerOrganization(app.url, 'Shop');
    await dataLookupClient(app.url).setUp(
      org,
      shopSettings(owner.readerUrl, { require_otp: true }),
    );
    const widget = await openWidget(org);
    const { frame } = widget;
    try {
      await openMenu(frame, 'Log in to your account');
      await typeInto(frame.getByRole('textbox', { name: 'Email or mobile number' }), ADA.mobile);
      await frame.getByRole('button', { name: 'Continue' }).click();
      const codeBox = frame.getByRole('textbox', { name: '6-digit code' });
      await codeBox.waitFor();
      // The code goes to the account's email, whatever identifier was typed.
      const mail = await smtp.next(ADA.email);
      await typeInto(codeBox, codeOf(mail));
      await frame.getByRole('button', { name: 'Verify' }).click();
      await frame
        .getByRole('status')
        .filter({ hasText: `Logged in as ${ADA.mobile}` })
        .waitFor();

      await frame.getByRole('button', { name: 'Back to chat' }).click();
      await openMenu(frame, 'Find a payment');
      await typeInto(frame.getByRole('textbox', { name: 'Transaction ID' }), 'TXN-A2');
      await frame.getByRole('button', { name: 'Search' }).click();
      const results = frame.getByRole('region', { name: 'Find a payment' });
      await results.getByRole('table').waitFor();
      expect(await results.getByRole('cell', { name: 'TXN-A2', exact: true }).count()).toBe(1);
      expect(await results.getByRole('columnheader', { name: 'amount' }).count()).toBe(1);
      expect(await results.getByRole('row').count()).toBe(2);

      // A keyword gets the rule's first page as a bot reply table, "more" the next page.
      await frame.getByRole('button', { name: 'Back to chat' }).click();
      const box = frame.getByRole('textbox', { name: 'Message' });
      await typeInto(box, 'Where are my orders?');
      await box.press('Enter');
      const log = frame.getByRole('log', { name: 'Messages' });
      const firstPage = log.getByRole('table');
      await firstPage.waitFor({ timeout: 15_000 });
      expect(await firstPage.getByRole('row').count()).toBe(4);
      await frame.getByRole('button', { name: 'Show more' }).first().click();
      await frame.getByRole('cell', { name: '4', exact: true }).waitFor();
      await frame.getByRole('button', { name: 'Track 7' }).click();
      await frame.getByText('Order 7 is packed.').waitFor();

      await openMenu(frame, 'Log in to your account');
      await frame.getByRole('button', { name: 'Log out' }).click();
      await frame.getByRole('textbox', { name: 'Email or mobile number' }).waitFor();
    } finally {
      await widget.close();
    }
  });

  it("speaks the visitor's language: the login reply, and a refusal worded from the catalog (issue 32)", async () => {
    const org = await registerOrganization(app.url, 'Laden');
    await dataLookupClient(app.url).setUp(org, shopSettings(owner.readerUrl));
    const site = await startHostSite({
      '/': hostPage(service, org.site.widget_key).replace(
        'data-widget-key=',
        'data-locale="de" data-widget-key=',
      ),
    });
    const page = await browser.newPage();
    try {
      await page.goto(site.url);
      await openChat(page);
      const frame = page.frameLocator('iframe[title="Chat"]');
      await frame.getByRole('textbox', { name: 'Nachricht' }).waitFor({ timeout: 15_000 });
      await frame.getByRole('button', { name: 'Weitere Optionen' }).click();
      await frame
        .getByRole('navigation', { name: 'Weitere Optionen' })
        // The site's own label (its settings hold the English default).
        .getByRole('button', { name: 'Log in to your account' })
        .click();
      await typeInto(
        frame.getByRole('textbox', { name: 'E-Mail oder Handynummer' }),
        'nobody@example.test',
      );
      await frame.getByRole('button', { name: 'Weiter', exact: true }).click();
      // The bot's reply, in German (the server picks it by the visitor's language).
      await frame
        .getByText('Wir konnten kein Konto mit dieser E-Mail-Adresse oder Mobilnummer finden.')
        .waitFor();

      // The site switches account login off meanwhile: the 403's reason (account_login_disabled)
      // is shown in the catalog's German, never the API's English text.
      await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .send({ widget_settings: { visitor_account_login: { enabled: false } } })
        .expect(200);
      await frame.getByRole('button', { name: 'Weiter', exact: true }).click();
      await frame.getByText('Die Anmeldung bei Ihrem Konto ist hier nicht verfügbar.').waitFor();
      expect(
        await frame.getByText('Visitor account login is not enabled for this site.').count(),
      ).toBe(0);
      if (process.env.SCREENSHOT_DIR) {
        for (const width of [1440, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({
            path: `${process.env.SCREENSHOT_DIR}/widget-reason-de-${width}.png`,
          });
        }
      }
    } finally {
      await page.close();
      await site.close();
    }
  });

  it('books a free slot of a day within advance_days and confirms it with the formatted time', async () => {
    const org = await registerOrganization(app.url, 'Clinic');
    await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ advance_days: 5 })
      .expect(200);
    const widget = await openWidget(org);
    const { frame } = widget;
    try {
      await openMenu(frame, 'Book a time');
      const day = frame.getByRole('combobox', { name: 'Day' });
      await day.waitFor();
      // Today and the five days after it (the service's last_date ends the picker), only the
      // weekdays with working hours (Monday to Friday by default).
      const expected = Array.from({ length: 6 }, (_, i) => {
        const date = new Date(Date.now() + i * 24 * 3600_000);
        return date.toISOString().slice(0, 10);
      }).filter((date) => ![0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()));
      const options = () =>
        day
          .locator('option')
          .evaluateAll((all) =>
            all.map((option) => (option as unknown as { value: string }).value),
          );
      const days = await eventually(async () => {
        const now = await options();
        return JSON.stringify(now) === JSON.stringify(expected) && now;
      });
      await checkFirstFreeSlot(frame, days);
      await typeInto(frame.getByRole('textbox', { name: 'Name' }), 'Grace Hopper');
      await typeInto(frame.getByRole('textbox', { name: 'Email' }), 'grace@example.test');
      await frame.getByRole('button', { name: 'Book' }).click();
      const confirmed = frame.getByRole('status').filter({ hasText: 'Booked:' });
      await confirmed.waitFor();
      const { rows } = await db.query<{
        visitor_name: string;
        visitor_email: string;
        status: string;
      }>(
        `SELECT visitor_name, visitor_email, status FROM appointments WHERE organization_id = $1`,
        [org.organization.id],
      );
      expect(rows).toEqual([
        { visitor_name: 'Grace Hopper', visitor_email: 'grace@example.test', status: 'confirmed' },
      ]);
      expect(await confirmed.textContent()).toMatch(/\(UTC\)/);
    } finally {
      await widget.close();
    }
  });

  it('says in a sentence when the site takes no more bookings for now (429)', async () => {
    const org = await registerOrganization(app.url, 'Busy clinic');
    for (const attempt of ['first', 'second']) {
      const widget = await openWidget(org);
      const { frame } = widget;
      try {
        await openMenu(frame, 'Book a time');
        const day = frame.getByRole('combobox', { name: 'Day' });
        await day.getByRole('option').nth(3).waitFor({ state: 'attached' });
        const days = await day
          .locator('option')
          .evaluateAll((options) =>
            options.map((option) => (option as unknown as { value: string }).value),
          );
        await checkFirstFreeSlot(frame, days);
        await typeInto(frame.getByRole('textbox', { name: 'Name' }), 'Mallory');
        await frame.getByRole('button', { name: 'Book' }).click();
        if (attempt === 'first') {
          await frame.getByRole('status').filter({ hasText: 'Booked:' }).waitFor();
        } else {
          await frame
            .getByText('Too many bookings have been made from here just now.', { exact: false })
            .waitFor();
          expect(await frame.getByText('Too Many Attempts.').count()).toBe(0);
        }
      } finally {
        await widget.close();
      }
    }
  });
});
