import type { Pool } from 'pg';
import request from 'supertest';
import { addMember, registerOrganization } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { totp } from '../utils/totp';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A code for `secret` one 30-second step away from now (-1: the last one, 1: the next). */
const codeAt = async (secret: string, steps = 0) => totp(secret, Date.now() + steps * 30_000);

/** Issue 28: TOTP two-factor authentication, recovery codes, the login challenge, and the organization's requirement. */
describe('accounts: two-factor authentication', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp());
  });

  afterAll(() => suite?.stop());

  const login = (email: string, password: string) =>
    request(app.url).post('/api/agent/auth/login').send({ email, password });
  const finish = (body: Record<string, unknown>) =>
    request(app.url).post('/api/agent/auth/two-factor').send(body);

  /** Turns two-factor on for a member; answers its secret and recovery codes. */
  async function enable(token: string) {
    const started = await request(app.url)
      .post('/api/agent/me/two-factor')
      .set(auth(token))
      .expect(200);
    const secret = started.body.data.secret as string;
    const confirmed = await request(app.url)
      .post('/api/agent/me/two-factor/confirm')
      .set(auth(token))
      .send({ code: await codeAt(secret) })
      .expect(200);
    return { secret, codes: confirmed.body.data.recovery_codes as string[] };
  }

  it('sets up with a secret and an otpauth URI, confirms with a code, and answers 10 recovery codes stored hashed', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const started = await request(app.url)
      .post('/api/agent/me/two-factor')
      .set(auth(agent.token))
      .expect(200);
    const { secret, otpauth_uri } = started.body.data as { secret: string; otpauth_uri: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Support%20Chat:/);
    expect(otpauth_uri).toContain(`secret=${secret}`);
    // The secret is sealed at rest.
    const row = await db.query(
      `SELECT l.two_factor_pending_sealed AS sealed FROM logins l JOIN users u ON u.login_id = l.id WHERE u.id = $1`,
      [agent.id],
    );
    expect(row.rows[0].sealed).not.toContain(secret);
    // Not on until confirmed: the login still answers a token.
    expect((await login(agent.email, agent.password).expect(200)).body.token).toMatch(/^sca_/);

    const wrong = await request(app.url)
      .post('/api/agent/me/two-factor/confirm')
      .set(auth(agent.token))
      .send({ code: '000000' })
      .expect(422);
    expect(wrong.body.errors.code).toBeDefined();
    const confirmed = await request(app.url)
      .post('/api/agent/me/two-factor/confirm')
      .set(auth(agent.token))
      .send({ code: await codeAt(secret) })
      .expect(200);
    const codes = confirmed.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await db.query(
      `SELECT encode(code_hash, 'escape') AS hash FROM login_recovery_codes r
         JOIN users u ON u.login_id = r.login_id WHERE u.id = $1`,
      [agent.id],
    );
    expect(stored.rows).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored.rows)).not.toContain(code);
    const status = await request(app.url)
      .get('/api/agent/me/two-factor')
      .set(auth(agent.token))
      .expect(200);
    expect(status.body.data).toEqual({
      enabled: true,
      recovery_codes_left: 10,
      managed_by_provider: false,
    });
    await request(app.url).post('/api/agent/me/two-factor').set(auth(agent.token)).expect(409);
  });

  it('answers the login with a challenge, finished by a code (once) or a recovery code (once)', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const { secret, codes } = await enable(agent.token);

    const first = await login(agent.email, agent.password).expect(200);
    expect(first.body).toMatchObject({
      two_factor_required: true,
      challenge: expect.stringMatching(/^tfc_/),
    });
    expect(first.body.token).toBeUndefined();
    expect(first.headers['set-cookie']).toBeUndefined();
    // The code that confirmed the setup was already used: the next one works.
    const next = await codeAt(secret, 1);
    const done = await finish({ challenge: first.body.challenge, code: next }).expect(200);
    expect(done.body).toMatchObject({
      token: expect.stringMatching(/^sca_/),
      user: { id: agent.id },
    });
    expect(String(done.headers['set-cookie'])).toMatch(/scs_session=sca_/);
    await request(app.url).get('/api/agent/me').set(auth(done.body.token)).expect(200);
    // The challenge is spent, and the same code does not open another one.
    await finish({ challenge: first.body.challenge, code: next }).expect(401);
    const second = await login(agent.email, agent.password).expect(200);
    await finish({ challenge: second.body.challenge, code: next }).expect(422);

    // A recovery code, once, in any case and without its dash.
    const recovered = await finish({
      challenge: second.body.challenge,
      recovery_code: codes[0].toUpperCase().replace('-', ''),
    }).expect(200);
    expect(recovered.body.user.id).toBe(agent.id);
    const third = await login(agent.email, agent.password).expect(200);
    await finish({ challenge: third.body.challenge, recovery_code: codes[0] }).expect(422);
    const status = await request(app.url)
      .get('/api/agent/me/two-factor')
      .set(auth(recovered.body.token))
      .expect(200);
    expect(status.body.data.recovery_codes_left).toBe(9);

    // Bad input and a made-up or expired challenge.
    const bad = await finish({ challenge: third.body.challenge }).expect(422);
    expect(bad.body.errors.code).toBeDefined();
    await finish({ challenge: 'tfc_made-up', code: '123456' }).expect(401);
    await db.query(`UPDATE two_factor_challenges SET expires_at = now() - interval '1 second'`);
    await finish({ challenge: third.body.challenge, code: await codeAt(secret, -1) }).expect(401);
  });

  it('limits guesses per challenge (5) and per account (10 per 15 minutes)', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const { secret } = await enable(agent.token);
    const challenge = (await login(agent.email, agent.password).expect(200)).body.challenge;
    for (let i = 0; i < 5; i += 1) await finish({ challenge, code: '000000' }).expect(422);
    // Spent: even the right code no longer works on it.
    const spent = await finish({ challenge, code: await codeAt(secret) }).expect(401);
    expect(spent.body.message).toMatch(/log in again/);

    // A new challenge each time does not reset the account's count: 4 more, then 429.
    const next = (await login(agent.email, agent.password).expect(200)).body.challenge;
    for (let i = 0; i < 4; i += 1) await finish({ challenge: next, code: '111111' }).expect(422);
    const limited = await finish({ challenge: next, code: await codeAt(secret) }).expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const another = (await login(agent.email, agent.password).expect(200)).body.challenge;
    await finish({ challenge: another, code: await codeAt(secret) }).expect(429);
  });

  it('turns off with the password and a code', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const { secret } = await enable(agent.token);
    await request(app.url)
      .delete('/api/agent/me/two-factor')
      .set(auth(agent.token))
      .send({ password: 'wrong password', code: await codeAt(secret, 1) })
      .expect(422);
    await request(app.url)
      .delete('/api/agent/me/two-factor')
      .set(auth(agent.token))
      .send({ password: agent.password, code: '000000' })
      .expect(422);
    await request(app.url)
      .delete('/api/agent/me/two-factor')
      .set(auth(agent.token))
      .send({ password: agent.password, code: await codeAt(secret, 1) })
      .expect(200);
    expect((await login(agent.email, agent.password).expect(200)).body.token).toMatch(/^sca_/);
  });

  it('an organization requiring it sends members without it to set it up before anything else', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    await request(app.url)
      .patch('/api/agent/organization')
      .set(auth(agent.token))
      .send({ require_two_factor: true })
      .expect(403);
    const set = await request(app.url)
      .patch('/api/agent/organization')
      .set(auth(org.token))
      .send({ require_two_factor: true })
      .expect(200);
    expect(set.body.data.require_two_factor).toBe(true);

    // The agent: me says so, everything else is 403, setting it up works.
    const me = await request(app.url).get('/api/agent/me').set(auth(agent.token)).expect(200);
    expect(me.body.two_factor_setup_required).toBe(true);
    const refused = await request(app.url)
      .get('/api/agent/conversations')
      .set(auth(agent.token))
      .expect(403);
    expect(refused.body.message).toMatch(/requires two-factor authentication/);
    await request(app.url).get('/api/agent/team/directory').set(auth(agent.token)).expect(403);
    const { secret } = await enable(agent.token);
    expect(secret).toBeTruthy();
    const after = await request(app.url).get('/api/agent/me').set(auth(agent.token)).expect(200);
    expect(after.body.two_factor_setup_required).toBe(false);
    await request(app.url).get('/api/agent/conversations').set(auth(agent.token)).expect(200);
    // The owner, without it, is held too until it sets it up.
    await request(app.url).get('/api/agent/conversations').set(auth(org.token)).expect(403);
  });
});
