import { simpleParser } from 'mailparser';
import type { Pool } from 'pg';
import request from 'supertest';
import { type Registered, registerOrganization, uniqueEmail } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { type CapturedMail, type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

const PUBLIC_URL = 'https://chat.acme.example';
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The token of the first link to `path` in a mail's text part. */
async function linkToken(mail: CapturedMail, path: string): Promise<string> {
  const text = (await simpleParser(mail.raw)).text ?? '';
  const match = new RegExp(`${PUBLIC_URL}${path}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}

/** Issue 28: invitations, password reset and address verification, each a mailed single-use link. */
describe('accounts: mailed links', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let owner: Registered;

  const subjectIs = (pattern: RegExp) => (mail: CapturedMail) =>
    pattern.test(/^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '');

  /** Registers and confirms the owner's address through the mailed link. */
  async function verifiedOwner(name: string): Promise<Registered> {
    const org = await registerOrganization(app.url, name);
    const mail = await smtp.next(org.user.email, subjectIs(/Confirm your address/));
    const token = await linkToken(mail, '/verify-email');
    await request(app.url).post('/api/agent/auth/verify-email').send({ token }).expect(200);
    return org;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, db } = suite = await startTestApp({ SMTP_URL: smtp.url, PUBLIC_URL }));
    owner = await verifiedOwner('Acme');
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  describe('email verification', () => {
    it('mails a link at sign-up; until it is used me says so and invitations are refused with 403', async () => {
      const org = await registerOrganization(app.url, 'Fresh');
      const me = await request(app.url).get('/api/agent/me').set(auth(org.token)).expect(200);
      expect(me.body.email_verified).toBe(false);
      const refused = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(org.token))
        .send({ email: uniqueEmail('x'), role: 'agent' })
        .expect(403);
      expect(refused.body.message).toMatch(/Confirm your email address/);

      const mail = await smtp.next(org.user.email, subjectIs(/Confirm your address/));
      const token = await linkToken(mail, '/verify-email');
      await request(app.url).post('/api/agent/auth/verify-email').send({ token }).expect(200);
      // Single use.
      const again = await request(app.url)
        .post('/api/agent/auth/verify-email')
        .send({ token })
        .expect(422);
      expect(again.body.errors.token).toBeDefined();
      const after = await request(app.url).get('/api/agent/me').set(auth(org.token)).expect(200);
      expect(after.body.email_verified).toBe(true);
      await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(org.token))
        .send({ email: uniqueEmail('x'), role: 'agent' })
        .expect(201);
    });
  });

  describe('invitations', () => {
    it('mails a 7-day link, lists it as pending, and the newcomer accepts, is a member and is logged in', async () => {
      const email = uniqueEmail('ada');
      const created = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email, role: 'agent', name: 'Ada' })
        .expect(201);
      expect(created.body.data).toMatchObject({
        email,
        role: 'agent',
        name: 'Ada',
        invited_by: 'Olivia Owner',
      });
      const days = (Date.parse(created.body.data.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(6.99);
      expect(days).toBeLessThan(7.01);
      const listed = await request(app.url)
        .get('/api/agent/team/invitations')
        .set(auth(owner.token))
        .expect(200);
      expect(listed.body.data.map((i: { email: string }) => i.email)).toContain(email);

      const mail = await smtp.next(email, subjectIs(/invited to join Acme/));
      const token = await linkToken(mail, '/accept-invite');
      // Only the hash is stored.
      const stored = await db.query(`SELECT token_hash FROM invitations WHERE email = $1`, [email]);
      expect(Buffer.from(stored.rows[0].token_hash).toString('utf8')).not.toContain(token);

      const accepted = await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token, name: 'Ada Lovelace', password: 'ada chooses this' })
        .expect(201);
      expect(accepted.body).toMatchObject({
        token: expect.stringMatching(/^sca_/),
        user: { email, name: 'Ada Lovelace', role: 'agent' },
        organization: { id: owner.organization.id },
      });
      expect(String(accepted.headers['set-cookie'])).toMatch(/scs_session=sca_/);
      const me = await request(app.url)
        .get('/api/agent/me')
        .set(auth(accepted.body.token))
        .expect(200);
      expect(me.body).toMatchObject({ email_verified: true, organization: { name: 'Acme' } });
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email, password: 'ada chooses this' })
        .expect(200);

      // The link is used up, and no longer pending.
      const reused = await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token, name: 'Mallory', password: 'another password' })
        .expect(422);
      expect(reused.body.errors.token).toEqual([
        'This invitation link is invalid, used, revoked or expired.',
      ]);
      const pending = await request(app.url)
        .get('/api/agent/team/invitations')
        .set(auth(owner.token))
        .expect(200);
      expect(pending.body.data.map((i: { email: string }) => i.email)).not.toContain(email);
    });

    it('answers the same for an address with an account elsewhere, which accepts with its own password', async () => {
      const elsewhere = await registerOrganization(app.url, 'Elsewhere');
      const stranger = uniqueEmail('nobody');
      const invite = (email: string) =>
        request(app.url)
          .post('/api/agent/team/invitations')
          .set(auth(owner.token))
          .send({ email, role: 'admin' })
          .expect(201);
      const known = await invite(elsewhere.user.email);
      const unknown = await invite(stranger);
      const shape = (body: { data: Record<string, unknown>; message: string }) => ({
        keys: Object.keys(body.data).sort(),
        message: body.message,
        invited_by: body.data.invited_by,
      });
      expect(shape(known.body)).toEqual(shape(unknown.body));
      // The same mail too, but for the link.
      const strip = async (mail: CapturedMail) =>
        ((await simpleParser(mail.raw)).text ?? '').replace(/token=[\w-]+/g, 'token=');
      const knownMail = await smtp.next(elsewhere.user.email, subjectIs(/invited to join/));
      const unknownMail = await smtp.next(stranger, subjectIs(/invited to join/));
      expect(await strip(knownMail)).toBe(await strip(unknownMail));

      const token = await linkToken(knownMail, '/accept-invite');
      // A wrong password for the existing account: refused, counted as a failed login.
      const wrong = await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token, password: 'not the password' })
        .expect(422);
      expect(wrong.body.errors.password).toBeDefined();
      const accepted = await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token, password: elsewhere.password })
        .expect(201);
      expect(accepted.body.user).toMatchObject({ role: 'admin', name: 'Olivia Owner' });
      const me = await request(app.url)
        .get('/api/agent/me')
        .set(auth(accepted.body.token))
        .expect(200);
      expect(me.body.organizations.map((o: { id: number }) => o.id).sort()).toEqual(
        [owner.organization.id, elsewhere.organization.id].sort(),
      );
      // Its password is unchanged.
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: elsewhere.user.email, password: elsewhere.password })
        .expect(200);
    });

    it('a revoked or expired link does not work; a second invitation replaces the first', async () => {
      const email = uniqueEmail('rev');
      const first = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email, role: 'agent' })
        .expect(201);
      const firstToken = await linkToken(await smtp.next(email), '/accept-invite');
      const second = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email, role: 'agent' })
        .expect(201);
      const secondToken = await linkToken(await smtp.next(email), '/accept-invite');
      await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token: firstToken, name: 'R', password: 'long enough pw' })
        .expect(422);
      await request(app.url)
        .delete(`/api/agent/team/invitations/${first.body.data.id}`)
        .set(auth(owner.token))
        .expect(404);
      await request(app.url)
        .delete(`/api/agent/team/invitations/${second.body.data.id}`)
        .set(auth(owner.token))
        .expect(200);
      await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token: secondToken, name: 'R', password: 'long enough pw' })
        .expect(422);

      const third = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email, role: 'agent' })
        .expect(201);
      const thirdToken = await linkToken(await smtp.next(email), '/accept-invite');
      await db.query(
        `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [third.body.data.id],
      );
      await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token: thirdToken, name: 'R', password: 'long enough pw' })
        .expect(422);
      await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token: 'made-up-token-made-up-token', name: 'R', password: 'long enough pw' })
        .expect(422);
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email, password: 'long enough pw' })
        .expect(401);
    });

    it('keeps invitations to owners and admins and of other organizations to themselves', async () => {
      const other = await verifiedOwner('Other');
      const agentInvite = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email: uniqueEmail('ag'), role: 'agent' })
        .expect(201);
      await request(app.url)
        .delete(`/api/agent/team/invitations/${agentInvite.body.data.id}`)
        .set(auth(other.token))
        .expect(404);
      const theirs = await request(app.url)
        .get('/api/agent/team/invitations')
        .set(auth(other.token))
        .expect(200);
      expect(theirs.body.data).toEqual([]);
      // An agent-role member may not invite, nor read the list.
      const email = uniqueEmail('member');
      await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email, role: 'agent' })
        .expect(201);
      const token = await linkToken(await smtp.next(email), '/accept-invite');
      const member = await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token, name: 'M', password: 'long enough pw' })
        .expect(201);
      await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(member.body.token))
        .send({ email: uniqueEmail('y'), role: 'agent' })
        .expect(403);
      await request(app.url)
        .get('/api/agent/team/invitations')
        .set(auth(member.body.token))
        .expect(403);
      // A member of the team already: said plainly (the team list shows it anyway).
      const already = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email: email.toUpperCase(), role: 'agent' })
        .expect(422);
      expect(already.body.errors.email).toBeDefined();
      const bad = await request(app.url)
        .post('/api/agent/team/invitations')
        .set(auth(owner.token))
        .send({ email: 'nope', role: 'boss' })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'role']);
    });
  });

  describe('password reset', () => {
    it('always answers 202; mails a 1-hour link only to a known address; the link sets the password once and ends every session', async () => {
      const org = await registerOrganization(app.url, 'Resets');
      const other = await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: org.password })
        .expect(200);
      const unknown = uniqueEmail('ghost');
      const known = await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: org.user.email })
        .expect(202);
      const ghost = await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: unknown })
        .expect(202);
      const { datetime: _a, ...knownAnswer } = known.body as Record<string, unknown>;
      const { datetime: _b, ...ghostAnswer } = ghost.body as Record<string, unknown>;
      expect(ghostAnswer).toEqual(knownAnswer);

      const mail = await smtp.next(org.user.email, subjectIs(/Reset your/));
      const token = await linkToken(mail, '/reset-password');
      const expires = await db.query<{ minutes: number }>(
        `SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes
           FROM login_tokens WHERE purpose = 'password_reset' ORDER BY id DESC LIMIT 1`,
      );
      expect(Math.round(Number(expires.rows[0].minutes))).toBe(60);

      await request(app.url)
        .post('/api/agent/auth/password-reset/confirm')
        .send({ token, password: 'short' })
        .expect(422);
      await request(app.url)
        .post('/api/agent/auth/password-reset/confirm')
        .send({ token, password: 'the new password' })
        .expect(200);
      // Every session of the login ended.
      await request(app.url).get('/api/agent/me').set(auth(org.token)).expect(401);
      await request(app.url).get('/api/agent/me').set(auth(other.body.token)).expect(401);
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: org.password })
        .expect(401);
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: 'the new password' })
        .expect(200);
      // Used once.
      const reused = await request(app.url)
        .post('/api/agent/auth/password-reset/confirm')
        .send({ token, password: 'yet another one' })
        .expect(422);
      expect(reused.body.errors.token).toBeDefined();

      // The unknown address got nothing: the SMTP server saw no mail to it, nor did the log.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(smtp.mails.filter((m) => m.to.includes(unknown))).toEqual([]);
      const logged = await db.query(`SELECT 1 FROM mail_log WHERE recipient = $1`, [unknown]);
      expect(logged.rows).toEqual([]);
    });

    it('refuses an expired link, and a new request replaces the older link', async () => {
      const org = await registerOrganization(app.url, 'Expiry');
      await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: org.user.email })
        .expect(202);
      const first = await linkToken(
        await smtp.next(org.user.email, subjectIs(/Reset/)),
        '/reset-password',
      );
      await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: org.user.email.toUpperCase() })
        .expect(202);
      const second = await linkToken(
        await smtp.next(org.user.email, subjectIs(/Reset/)),
        '/reset-password',
      );
      await request(app.url)
        .post('/api/agent/auth/password-reset/confirm')
        .send({ token: first, password: 'the new password' })
        .expect(422);
      await db.query(
        `UPDATE login_tokens SET expires_at = now() - interval '1 second'
          WHERE purpose = 'password_reset' AND used_at IS NULL`,
      );
      await request(app.url)
        .post('/api/agent/auth/password-reset/confirm')
        .send({ token: second, password: 'the new password' })
        .expect(422);
      await request(app.url).get('/api/agent/me').set(auth(org.token)).expect(200);
    });

    it('limits requests per address, known or not, with the same 429', async () => {
      const ghost = uniqueEmail('flood');
      for (let i = 0; i < 5; i += 1)
        await request(app.url)
          .post('/api/agent/auth/password-reset')
          .send({ email: ghost })
          .expect(202);
      const limited = await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: ghost })
        .expect(429);
      expect(limited.headers['retry-after']).toBeDefined();
      await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: 'not an address' })
        .expect(422);
    });
  });

  describe('audit log', () => {
    it('records the address confirmed, invitations made, revoked and accepted, and a password reset', async () => {
      const org = await verifiedOwner('Audited');
      const kept = uniqueEmail('kept');
      const dropped = uniqueEmail('dropped');
      for (const email of [kept, dropped]) {
        await request(app.url)
          .post('/api/agent/team/invitations')
          .set(auth(org.token))
          .send({ email, role: 'agent' })
          .expect(201);
      }
      const pending = await request(app.url)
        .get('/api/agent/team/invitations')
        .set(auth(org.token))
        .expect(200);
      const droppedId = pending.body.data.find((i: { email: string }) => i.email === dropped).id;
      await request(app.url)
        .delete(`/api/agent/team/invitations/${droppedId}`)
        .set(auth(org.token))
        .expect(200);
      const invite = await linkToken(await smtp.next(kept, subjectIs(/invited/)), '/accept-invite');
      const accepted = await request(app.url)
        .post('/api/agent/auth/accept-invite')
        .send({ token: invite, name: 'Grace Hopper', password: 'grace chooses this' })
        .expect(201);
      await request(app.url)
        .post('/api/agent/auth/password-reset')
        .send({ email: kept })
        .expect(202);
      const reset = await linkToken(
        await smtp.next(kept, subjectIs(/password/i)),
        '/reset-password',
      );
      await request(app.url)
        .post('/api/agent/auth/password-reset/confirm')
        .send({ token: reset, password: 'grace has a new one' })
        .expect(200);

      const log = await request(app.url)
        .get('/api/agent/audit-log')
        .set(auth(org.token))
        .query({ per_page: '50' })
        .expect(200);
      const actions = (log.body.data as { action: string; actor: { id: number | null } }[]).map(
        (e) => e.action,
      );
      expect(actions).toEqual(
        expect.arrayContaining([
          'email.verified',
          'invitation.created',
          'invitation.revoked',
          'invitation.accepted',
          'password.reset',
        ]),
      );
      const acceptedEntry = (
        log.body.data as { action: string; target: { id: string | number } }[]
      ).find((e) => e.action === 'invitation.accepted');
      expect(String(acceptedEntry!.target.id)).toBe(String(accepted.body.user.id));
    });
  });
});
