import os from 'node:os';
import type { Locator, Page } from 'playwright-core';
import {
  browserAvailable,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';
import type { Registered } from '../factories/identity';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? os.tmpdir();

/**
 * Settings texts (issue 26): a refused field shows the catalog's sentence, never the server's
 * text; where an operator setting decides, the sentence names it.
 */
describeIfBrowser('the dashboard: settings speak in sentences', () => {
  let suite: DashboardSuite;
  let browser: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page | undefined;
  const step = screenshotOnFailure('dashboard-settings-texts', () => page);

  /** The message a field is described by once the API refused it (Mantine's `error`). */
  const fieldError = async (field: Locator): Promise<string> => {
    await field.and(page!.locator('[aria-invalid="true"]')).waitFor();
    const ids = (await field.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(
      ids
        .split(' ')
        .filter(Boolean)
        .map((id) => page!.locator(`[id="${id}"]`).textContent()),
    );
    return texts.join(' ');
  };

  beforeAll(async () => {
    // As in production: webhooks go to https addresses only. The data lookup may reach only the
    // test's own database server (the suite's default DATA_LOOKUP_ALLOWED_HOSTS).
    ({ browser, service, owner } = suite = await startDashboardSuite({
      env: { WEBHOOK_ALLOW_INSECURE: 'false' },
      organization: 'Acme Texts',
    }));
  });

  afterAll(() => suite?.stop());

  step('a plain http webhook address is refused naming WEBHOOK_ALLOW_INSECURE', async () => {
    page = await browser.newPage();
    await page.goto(`${service}/login`);
    await page.getByLabel('Email', { exact: true }).fill(owner.user.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: `Account menu for ${owner.user.name}` }).waitFor();
    await page.goto(`${service}/settings/webhooks`);
    const form = page.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('Endpoint URL').fill('http://hooks.example.com/support');
    await form.getByRole('checkbox', { name: 'ticket.created' }).check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await form
      .getByText(
        'Use an https:// address. This service sends webhooks to plain http:// addresses only if its operator sets WEBHOOK_ALLOW_INSECURE=true.',
      )
      .waitFor();
    expect(await form.getByText('The url must use https.').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/settings-webhook-insecure-owner-1440.png` });
  });

  step('the trusted-login page shows the request in curl and in Node', async () => {
    await page!.goto(`${service}/settings/trusted-login`);
    const example = page!.getByRole('region', { name: 'Request example' });
    const curl = example.getByRole('tabpanel', { name: 'curl' });
    await curl.waitFor();
    const curlText = (await curl.textContent()) ?? '';
    expect(curlText).toContain(`curl -X POST '${service}/api/visitor-account-login/trusted'`);
    expect(curlText).toMatch(/-H "x-[\w-]+: \$TRUSTED_LOGIN_SECRET"/i);
    expect(curlText).toContain('"visitor_uid":"VISITOR_UID"');
    expect(await seriousAxeViolations(page!)).toEqual([]);
    await example.getByRole('tab', { name: 'Node.js' }).click();
    const node = example.getByRole('tabpanel', { name: 'Node.js' });
    await node.waitFor();
    expect(await node.textContent()).toContain(
      `await fetch('${service}/api/visitor-account-login/trusted'`,
    );
    expect(await node.textContent()).toContain('process.env.TRUSTED_LOGIN_SECRET');
    expect(await seriousAxeViolations(page!)).toEqual([]);
    for (const width of [1440, 390]) {
      await page!.setViewportSize({ width, height: 900 });
      await page!.screenshot({
        path: `${SHOTS}/trusted-login-example-owner-${width}.png`,
        fullPage: true,
      });
    }
    await page!.setViewportSize({ width: 1440, height: 900 });
  });

  step(
    "an organization name of only spaces is refused in a sentence, not the server's",
    async () => {
      await page!.goto(`${service}/settings/organization`);
      const form = page!.getByRole('form', { name: 'Organization' });
      const name = form.getByRole('textbox', { name: 'Organization name' });
      await name.fill('   ');
      await form.getByRole('button', { name: 'Save organization' }).click();
      expect(await fieldError(name)).toBe('Give your organization a name.');
      await page!
        .getByRole('alert')
        .filter({ hasText: 'Give your organization a name.' })
        .waitFor();
      expect(await page!.getByText(/must not be empty|should not be empty/i).count()).toBe(0);
      expect(await seriousAxeViolations(page!)).toEqual([]);
      await page!.screenshot({ path: `${SHOTS}/settings-organization-blank-owner-1440.png` });
    },
  );

  step('data lookup: a missing lookup column and a refused host get sentences', async () => {
    await page!.goto(`${service}/settings/data-lookup`);
    const url = page!.getByRole('textbox', { name: 'Connection URL' });
    await url.fill('postgres://reader:secret@10.255.255.1:5432/shop');
    await page!
      .getByRole('group', { name: 'Account table' })
      .getByRole('textbox', { name: 'Table' })
      .fill('customers');
    await page!.getByRole('textbox', { name: 'Key column' }).fill('id');
    await page!.getByRole('button', { name: 'Save data lookup' }).click();
    // No lookup column: the DTO refuses `account.lookup_columns`.
    const lookup = page!.getByRole('combobox', { name: 'Lookup columns' });
    expect(await fieldError(lookup)).toBe(
      'Add at least one column that a customer can be found by, such as email.',
    );
    expect(await page!.getByText(/Lookup_columns|at least 1 elements/).count()).toBe(0);
    expect(await seriousAxeViolations(page!)).toEqual([]);

    // A private address the operator has not allowed: the sentence names the setting.
    await lookup.fill('email');
    await lookup.press('Enter');
    await page!.getByRole('textbox', { name: 'Email column' }).fill('email');
    await page!.getByRole('textbox', { name: 'Name column' }).fill('name');
    await page!.getByRole('button', { name: 'Save data lookup' }).click();
    const refused =
      'This service may not connect to that database host. Its operator allows a host by adding it to DATA_LOOKUP_ALLOWED_HOSTS.';
    expect(await fieldError(url)).toContain(refused);
    await page!.getByRole('alert').filter({ hasText: refused }).waitFor();
    expect(await page!.getByText(/refused by policy|could not be read/).count()).toBe(0);
    expect(await seriousAxeViolations(page!)).toEqual([]);
    for (const width of [1440, 390]) {
      await page!.setViewportSize({ width, height: 900 });
      await page!.screenshot({
        path: `${SHOTS}/settings-data-lookup-refused-owner-${width}.png`,
        fullPage: true,
      });
    }
    await page!.setViewportSize({ width: 1440, height: 900 });
  });

  step('your account: a wrong current password and a short new one, in sentences', async () => {
    await page!.goto(`${service}/account`);
    const current = page!.getByLabel('Current password');
    const next = page!.getByLabel('New password');
    await current.fill('not my password');
    await next.fill('short');
    await page!.getByRole('button', { name: 'Change password' }).click();
    // The DTO refuses the short one first: the catalog's sentence, not "must be longer than".
    await page!.getByText('Choose a new password of 8 to 200 characters.').waitFor();
    expect(await page!.getByText(/must be longer than/).count()).toBe(0);
    await next.fill('a long enough new passphrase');
    await page!.getByRole('button', { name: 'Change password' }).click();
    await page!.getByText('This is not your current password.').waitFor();
    expect(await page!.getByText('The current password is incorrect.').count()).toBe(0);
    expect(await seriousAxeViolations(page!)).toEqual([]);
  });
});
