import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { type Registered, registerOrganization, uniqueEmail } from '../factories/identity';
import { type AppProcess } from '../utils/app-process';
import {
  browserAvailable,
  launchBrowser,
  screenshotOnFailure,
  seriousAxeViolations,
  type TestBrowser,
} from '../utils/browser';
import { totp } from '../utils/totp';
import { type CapturedMail, type SmtpCapture, startSmtp } from '../utils/smtp';
import { type DashboardSuite, startDashboardSuite } from '../utils/dashboard-suite';

const describeIfBrowser = browserAvailable() ? describe : describe.skip;
// A real 8x8 PNG (indigo).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPwd3uKFTEMLQkAx2Rege9i6lUAAAAASUVORK5CYII=',
  'base64',
);
const SHOTS = process.env.SCREENSHOT_DIR;

/**
 * Accounts in the dashboard (issue 28): the address confirmation, an invitation accepted in
 * another browser, a forgotten password reset by mail, and the organization switcher.
 */
describeIfBrowser('dashboard accounts', () => {
  let suite: DashboardSuite;
  let app: AppProcess;
  let smtp: SmtpCapture;
  let service: string;
  let owner: Registered;
  let browser: TestBrowser;
  let page: Page;

  const noSeriousViolations = async (on: Page = page) =>
    expect(JSON.stringify(await seriousAxeViolations(on), null, 1)).toBe('[]');
  const shoot = screenshotOnFailure('dashboard-accounts', () => page);
  const step = (name: string, body: () => Promise<void>) =>
    shoot(name, async () => {
      await page?.close();
      page = await browser.newPage();
      await body();
    });
  /** Screenshots to look at, when SCREENSHOT_DIR is set: 1440 and 390 px wide. */
  async function pictures(on: Page, name: string) {
    if (!SHOTS) return;
    for (const width of [1440, 390]) {
      await on.setViewportSize({ width, height: 900 });
      await on.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    await on.setViewportSize({ width: 1440, height: 900 });
  }
  const linkIn = async (mail: CapturedMail, path: string) => {
    const text = (await simpleParser(mail.raw)).text ?? '';
    const match = new RegExp(`${service}${path}\\?token=[A-Za-z0-9_-]+`).exec(text);
    if (!match) throw new Error(`no ${path} link in ${text}`);
    return match[0];
  };
  const subject = (pattern: RegExp) => (mail: CapturedMail) =>
    pattern.test(/^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '');

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, service, browser, owner } = suite = await startDashboardSuite({
      env: { SMTP_URL: smtp.url },
      loggedIn: true,
    }));
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  step('shows the unconfirmed-address banner until the mailed link is opened', async () => {
    await page.goto(`${service}/inbox`);
    const banner = page.getByRole('status').filter({ hasText: 'Confirm your email address' });
    await banner.waitFor();
    await noSeriousViolations();
    await pictures(page, 'accounts-banner');
    const link = await linkIn(
      await smtp.next(owner.user.email, subject(/Confirm your address/)),
      '/verify-email',
    );
    await page.goto(link);
    await page.getByRole('heading', { name: 'Confirm your address', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await page.getByRole('status').filter({ hasText: 'Your address is confirmed.' }).waitFor();
    await noSeriousViolations();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.getByRole('button', { name: /^Account menu for/ }).waitFor();
    expect(await banner.count()).toBe(0);
  });

  step('invites by mail; the invitee accepts in another browser and is in the team', async () => {
    const email = uniqueEmail('ivy');
    await page.goto(`${service}/settings/team`);
    const form = page.getByRole('form', { name: 'Invite a teammate' });
    await form.getByRole('textbox', { name: 'Email' }).fill(email);
    await form.getByRole('textbox', { name: 'Name (optional)' }).fill('Ivy');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `An invitation was mailed to ${email}.` })
      .waitFor();
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: email, exact: true }).waitFor();
    await noSeriousViolations();
    await pictures(page, 'accounts-team');

    const link = await linkIn(
      await smtp.next(email, subject(/invited to join Acme/)),
      '/accept-invite',
    );
    const invitee = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      const other = await invitee.newPage();
      await other.goto(link);
      await other.getByRole('heading', { name: 'Join your team', level: 1 }).waitFor();
      await noSeriousViolations(other);
      await pictures(other, 'accounts-accept');
      await other.getByRole('textbox', { name: 'Your name' }).fill('Ivy Invitee');
      await other.getByRole('textbox', { name: 'Password' }).fill('ivy picks this one');
      await other.getByRole('button', { name: 'Accept the invitation' }).click();
      await other.waitForURL(`${service}/inbox`);
      await other.getByRole('button', { name: 'Account menu for Ivy Invitee' }).waitFor();
    } finally {
      await invitee.close();
    }
    await page.reload();
    await page.getByRole('cell', { name: 'Ivy Invitee', exact: true }).waitFor();
    await pending.getByText('No invitation is waiting for an answer.').waitFor();
  });

  step('resets a forgotten password by mail, then logs in with the new one', async () => {
    const member = await request(app.url)
      .post('/api/agent/team')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({
        name: 'Fay Forgetful',
        email: uniqueEmail('fay'),
        role: 'agent',
        password: 'old password',
      })
      .expect(201);
    const email = member.body.data.email as string;
    const stranger = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    try {
      const other = await stranger.newPage();
      await other.goto(`${service}/login`);
      await other.getByRole('link', { name: 'Forgot password?' }).click();
      await other.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
      await other.getByRole('textbox', { name: 'Email' }).fill(email);
      await other.getByRole('button', { name: 'Mail me a link' }).click();
      await other
        .getByRole('status')
        .filter({ hasText: 'If this address has an account' })
        .waitFor();
      await noSeriousViolations(other);
      await pictures(other, 'accounts-forgot');

      const link = await linkIn(await smtp.next(email, subject(/Reset your/)), '/reset-password');
      await other.goto(link);
      await other.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
      await other.getByLabel('New password').fill('fay remembers now');
      await pictures(other, 'accounts-reset');
      await other.getByRole('button', { name: 'Set the new password' }).click();
      await other.getByRole('status').filter({ hasText: 'Your password was reset.' }).waitFor();
      await noSeriousViolations(other);
      await other.getByRole('link', { name: 'Log in' }).first().click();
      await other.getByRole('textbox', { name: 'Email' }).fill(email);
      await other.getByRole('textbox', { name: 'Password' }).fill('fay remembers now');
      await other.getByRole('button', { name: 'Log in' }).click();
      await other.getByRole('button', { name: 'Account menu for Fay Forgetful' }).waitFor();
    } finally {
      await stranger.close();
    }
  });

  step('switches organization from the account menu', async () => {
    const client = await registerOrganization(app.url, 'Client Shop');
    await request(app.url)
      .post('/api/agent/team')
      .set('Authorization', `Bearer ${client.token}`)
      .send({
        name: 'Olivia at Client',
        email: owner.user.email,
        role: 'admin',
        password: 'ignored pw 1',
      })
      .expect(201);
    await page.goto(`${service}/inbox`);
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Switch to Client Shop' }).waitFor();
    await page.getByRole('menuitem', { name: 'Acme (current)' }).waitFor();
    await pictures(page, 'accounts-switcher');
    // axe on the page, the menu closed (Mantine's open menu holds a focus-trap node of its own).
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await noSeriousViolations();
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Switch to Client Shop' }).click();
    await page.getByRole('button', { name: 'Account menu for Olivia at Client' }).waitFor();
    await page.getByText('Client Shop', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Account menu for Olivia at Client' }).click();
    await page.getByRole('menuitem', { name: 'Switch to Acme' }).click();
    await page.getByRole('button', { name: 'Account menu for Olivia Owner' }).waitFor();
  });

  step('edits its own name and picture on the profile page', async () => {
    await page.goto(`${service}/inbox`);
    await page.getByRole('button', { name: /^Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Profile and security' }).click();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Profile and security', level: 1 }).waitFor();
    const nameForm = page.getByRole('form', { name: 'Your name' });
    await nameForm.getByRole('textbox', { name: 'Name' }).fill('Olivia Prime');
    await nameForm.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Your profile was saved.' }).waitFor();
    await page.getByRole('button', { name: 'Account menu for Olivia Prime' }).waitFor();

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a picture' }).click();
    await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'Avatar of Olivia Prime' }).waitFor();
    const directory = await request(app.url)
      .get('/api/agent/team/directory')
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    const mine = directory.body.data.find((m: { id: number }) => m.id === owner.user.id);
    expect(mine).toMatchObject({
      name: 'Olivia Prime',
      avatar_url: expect.stringContaining('/api/avatars/av_'),
    });
    await noSeriousViolations();
    await pictures(page, 'accounts-profile');
    await page.getByRole('button', { name: 'Remove the picture' }).click();
    await page.getByRole('button', { name: 'Upload a picture' }).waitFor();
    await page.getByRole('img', { name: 'Avatar of Olivia Prime' }).waitFor({ state: 'detached' });
  });

  step(
    'sets up two-factor with a code computed here, then logs in through the challenge',
    async () => {
      await page.goto(`${service}/account`);
      const card = page.getByRole('region', { name: 'Two-factor authentication' });
      await card.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      await card
        .getByRole('img', { name: 'QR code to scan with your authenticator app' })
        .waitFor();
      const secret = ((await card.getByLabel('Setup key').textContent()) ?? '').trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await noSeriousViolations();
      await pictures(page, 'accounts-two-factor-setup');
      await card.getByRole('textbox', { name: 'Code from your app' }).fill(totp(secret));
      await card.getByRole('button', { name: 'Turn on' }).click();
      const codes = card.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      expect(await codes.getByRole('listitem').count()).toBe(10);
      await noSeriousViolations();
      await pictures(page, 'accounts-two-factor-codes');
      await card.getByRole('button', { name: 'I have saved them' }).click();
      await card.getByText('Two-factor authentication is on. Recovery codes left: 10.').waitFor();

      await page.getByRole('button', { name: /^Account menu for/ }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await page.getByRole('heading', { name: 'Log in to Support Chat' }).waitFor();
      await page.getByRole('textbox', { name: 'Email' }).fill(owner.user.email);
      await page.getByRole('textbox', { name: 'Password' }).fill(owner.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Enter your code', level: 1 }).waitFor();
      await noSeriousViolations();
      await pictures(page, 'accounts-two-factor-login');
      await page.getByRole('textbox', { name: 'Code' }).fill('000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('The code is not valid: type the current one from your app.').waitFor();
      // The next step's code: the one that turned it on may not be used again.
      await page.getByRole('textbox', { name: 'Code' }).fill(totp(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('button', { name: /^Account menu for/ }).waitFor();
    },
  );

  step('an organization requiring two-factor sends a member without it to set it up', async () => {
    await page.goto(`${service}/settings/organization`);
    await page
      .getByRole('switch', { name: 'Require two-factor authentication for every member' })
      .check();
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.getByRole('status').filter({ hasText: 'Your changes were saved.' }).waitFor();
    await noSeriousViolations();
    const member = await request(app.url)
      .post('/api/agent/team')
      .set('Authorization', `Bearer ${owner.token}`)
      .send({
        name: 'Nora New',
        email: uniqueEmail('nora'),
        role: 'agent',
        password: 'nora password',
      })
      .expect(201);
    const other = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    try {
      const second = await other.newPage();
      await second.goto(`${service}/login`);
      await second.getByRole('textbox', { name: 'Email' }).fill(member.body.data.email as string);
      await second.getByRole('textbox', { name: 'Password' }).fill('nora password');
      await second.getByRole('button', { name: 'Log in' }).click();
      await second.waitForURL(`${service}/account`);
      await second
        .getByRole('alert')
        .filter({ hasText: 'Your organization requires two-factor authentication' })
        .waitFor();
      await second.getByRole('button', { name: 'Set up two-factor authentication' }).waitFor();
      await noSeriousViolations(second);
      await pictures(second, 'accounts-two-factor-required');
      // The inbox sends it back here.
      await second.goto(`${service}/inbox`);
      await second.waitForURL(`${service}/account`);
    } finally {
      await other.close();
    }
  });
});
