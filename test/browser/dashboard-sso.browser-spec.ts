import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered } from '../factories/identity';
import { type AppProcess } from '../utils/app-process';
import {
  browserAvailable,
  launchBrowser,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { type OidcProvider, startOidcProvider } from '../utils/oidc-provider';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
const SHOTS = process.env.SCREENSHOT_DIR ?? '/tmp';
const CLIENT = { client_id: 'support-chat', client_secret: 'browser-test-client-secret' };

/** Settings → Single sign-on, and signing in through the provider's own login page (issue 28). */
describeIfBrowser('dashboard single sign-on', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let provider: OidcProvider;
  let owners: TestBrowser;
  let people: TestBrowser;
  let service: string;
  let owner: Registered;
  let page: Page;

  beforeAll(async () => {
    ({
      app,
      service,
      browser: owners,
      owner,
    } = suite = await startDashboardSuite({
      // The provider knows the app's callback address, so it starts first.
      env: async (at) => {
        provider = await startOidcProvider([
          { ...CLIENT, redirect_uris: [`${at}/api/agent/auth/sso/callback`] },
        ]);
        return { SSO_ALLOWED_HOSTS: '127.0.0.1' };
      },
      loggedIn: true,
    }));
    people = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    page = await owners.newPage();
  });

  afterAll(async () => {
    await people?.close();
    try {
      await suite?.stop();
    } finally {
      await provider?.stop();
    }
  });

  it('lets the owner set it up, then a new person signs in through the provider', async () => {
    await page.goto(`${service}/settings`);
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { name: 'Single sign-on', level: 2 }).waitFor();
    await page.getByRole('textbox', { name: 'Issuer URL' }).fill('http://10.0.0.1');
    await page.getByRole('textbox', { name: 'Client ID' }).fill(CLIENT.client_id);
    await page.getByLabel('Client secret').fill(CLIENT.client_secret);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/lists its host in SSO_ALLOWED_HOSTS\./).waitFor();
    expect(await page.getByText(/must be a public https address/).count()).toBe(0);

    await page.getByRole('textbox', { name: 'Issuer URL' }).fill(provider.issuer);
    const domains = page.getByRole('combobox', { name: 'Allowed email domains' });
    await domains.fill('sso.example');
    await domains.press('Enter');
    await page.getByRole('switch', { name: 'Require single sign-on' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Single sign-on was saved.').waitFor();
    await page
      .getByText(
        `Sign-in link for your team: ${service}/login?organization=${owner.organization.id}`,
      )
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/sso-settings-1440.png`, fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/sso-settings-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    const saved = await request(app.url)
      .get('/api/agent/sso')
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    expect(saved.body.data).toMatchObject({ allowed_domains: ['sso.example'], enforce: true });

    // Someone of the allowed domain, from the link the page shows.
    const person = await people.newPage();
    await person.goto(`${service}/login?organization=${owner.organization.id}`);
    await person.getByRole('textbox', { name: 'Organization ID' }).waitFor();
    expect(await person.getByRole('textbox', { name: 'Organization ID' }).inputValue()).toBe(
      String(owner.organization.id),
    );
    await person.screenshot({ path: `${SHOTS}/sso-login-1440.png`, fullPage: true });
    expect(await seriousAxeViolations(person)).toEqual([]);
    await person.setViewportSize({ width: 390, height: 844 });
    await person.screenshot({ path: `${SHOTS}/sso-login-390.png`, fullPage: true });
    await person.setViewportSize({ width: 1440, height: 900 });
    await person.getByRole('button', { name: 'Sign in with SSO' }).click();
    // The provider's own (development) login and consent pages.
    await person.getByPlaceholder('Enter any login').fill('nina@sso.example');
    await person.getByPlaceholder('and password').fill('anything');
    await person.getByRole('button', { name: 'Sign-in' }).click();
    await person.getByRole('button', { name: 'Continue' }).click();
    await person.waitForURL(`${service}/inbox`);
    const me = await person.request.get(`${service}/api/agent/me`);
    expect(me.status()).toBe(200);
    const body = (await me.json()) as { user: { email: string; role: string } };
    expect(body.user).toMatchObject({ email: 'nina@sso.example', role: 'agent' });

    // Second factors are the provider's: the profile page says so and offers no setup.
    await person.goto(`${service}/account`);
    await person.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await person
      .getByText(
        'You signed in with single sign-on: your identity provider asks for your second factor',
      )
      .waitFor();
    expect(
      await person.getByRole('button', { name: 'Set up two-factor authentication' }).count(),
    ).toBe(0);
    await person.screenshot({ path: `${SHOTS}/sso-two-factor-1440.png`, fullPage: true });
  });

  it('brings a failed sign-in back to the login page with a readable message', async () => {
    const strangers = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    const stranger = await strangers.newPage();
    try {
      await stranger.goto(`${service}/login?organization=${owner.organization.id}`);
      await stranger.getByRole('button', { name: 'Sign in with SSO' }).click();
      // An address of a domain that may not join.
      await stranger.getByPlaceholder('Enter any login').fill('mallory@elsewhere.example');
      await stranger.getByPlaceholder('and password').fill('anything');
      await stranger.getByRole('button', { name: 'Sign-in' }).click();
      await stranger.getByRole('button', { name: 'Continue' }).click();
      await stranger.waitForURL(/\/login\?sso_error=not_allowed/);
      const alert = stranger.getByRole('alert').filter({ hasText: 'Single sign-on failed' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        'Your email address is not a member of this organization, and its domain may not join.',
      );
      // No JSON in the browser, and the login form is right there.
      expect(await stranger.getByRole('button', { name: 'Log in' }).count()).toBe(1);
      await stranger.screenshot({ path: `${SHOTS}/sso-error-1440.png`, fullPage: true });
      expect(await seriousAxeViolations(stranger)).toEqual([]);
      await stranger.setViewportSize({ width: 390, height: 844 });
      await stranger.screenshot({ path: `${SHOTS}/sso-error-390.png`, fullPage: true });

      // A stale or replayed return from the provider says so too.
      await stranger.goto(`${service}/api/agent/auth/sso/callback?code=x&state=made-up`);
      await stranger.waitForURL(/\/login\?sso_error=expired/);
      await stranger
        .getByRole('alert')
        .filter({ hasText: 'That single sign-on attempt has expired or was already used.' })
        .waitFor();
    } finally {
      await strangers.close();
    }
  });
});
