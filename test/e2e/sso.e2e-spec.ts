import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, logged } from '../utils/app-process';
import { type OidcProvider, signInAtProvider, startOidcProvider } from '../utils/oidc-provider';
import { startTestApp, type TestApp } from '../utils/test-app';

const PUBLIC_URL = 'https://chat.sso.test';
const REDIRECT_URI = `${PUBLIC_URL}/api/agent/auth/sso/callback`;
const CLIENT = {
  client_id: 'support-chat',
  client_secret: `secret-${randomBytes(8).toString('hex')}`,
};
const OTHER_CLIENT = { client_id: 'another-app', client_secret: 'another-secret-value' };
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
const unique = (label: string, domain: string) =>
  `${label}-${randomBytes(4).toString('hex')}@${domain}`;

/** Issue 28, last point: single sign-on with OpenID Connect against a real provider. */
describe('single sign-on (OIDC)', () => {
  let suite: TestApp;
  let app: AppProcess;
  let provider: OidcProvider;

  beforeAll(async () => {
    provider = await startOidcProvider([
      { ...CLIENT, redirect_uris: [REDIRECT_URI] },
      { ...OTHER_CLIENT, redirect_uris: [REDIRECT_URI] },
    ]);
    ({ app } = suite = await startTestApp({ PUBLIC_URL, SSO_ALLOWED_HOSTS: '127.0.0.1' }));
  });

  afterAll(async () => {
    try {
      await suite?.stop();
    } finally {
      await provider?.stop();
    }
  });

  const settings = (overrides: Record<string, unknown> = {}) => ({
    issuer: provider.issuer,
    client_id: CLIENT.client_id,
    client_secret: CLIENT.client_secret,
    allowed_domains: ['jit.test'],
    default_role: 'agent',
    enforce: false,
    ...overrides,
  });

  async function organizationWithSso(overrides: Record<string, unknown> = {}) {
    const owner = await registerOrganization(app.url, 'SSO Co');
    await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send(settings(overrides))
      .expect(200);
    return owner;
  }

  /** The start redirect: the provider's authorization URL and the browser-binding cookie. */
  async function start(owner: Registered) {
    const res = await request(app.url)
      .get(`/api/agent/auth/sso/start?organization=${owner.organization.id}`)
      .expect(302);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('scs_sso='),
    );
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    return { location: new URL(res.headers.location), cookie: cookie!.split(';')[0] };
  }

  /** Hands the provider's redirect (to PUBLIC_URL) to the app, with the browser's cookie. */
  const callback = (returned: URL, cookie: string) =>
    request(app.url).get(`/api/agent/auth/sso/callback${returned.search}`).set('Cookie', cookie);

  async function signIn(owner: Registered, email: string) {
    const { location, cookie } = await start(owner);
    const returned = await signInAtProvider(location.href, email);
    expect(returned.origin + returned.pathname).toBe(REDIRECT_URI);
    return { returned, cookie, response: await callback(returned, cookie) };
  }

  const sessionOf = (res: request.Response) => {
    const cookie = (res.headers['set-cookie'] as unknown as string[] | undefined)?.find((c) =>
      c.startsWith('scs_session='),
    );
    return cookie
      ? decodeURIComponent(cookie.split(';')[0].slice('scs_session='.length))
      : undefined;
  };

  /** A failed sign-in goes back to the dashboard's login page, saying why. */
  const toLogin = (res: request.Response, reason: string) => {
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location);
    expect(location.origin + location.pathname).toBe(`${PUBLIC_URL}/login`);
    expect(location.searchParams.get('sso_error')).toBe(reason);
    expect(sessionOf(res)).toBeUndefined();
    return location;
  };

  const loginsOf = async (email: string) =>
    Number(
      (await suite.db.query('SELECT count(*) FROM logins WHERE lower(email) = lower($1)', [email]))
        .rows[0].count,
    );

  it('lets the owner only read and write the settings, masks the secret and refuses an issuer outside the policy', async () => {
    const owner = await registerOrganization(app.url, 'Settings Co');
    const admin = await addMember(app.url, owner.token, 'admin');
    const agent = await addMember(app.url, owner.token, 'agent');
    const empty = await request(app.url).get('/api/agent/sso').set(auth(owner.token)).expect(200);
    expect(empty.body.data).toMatchObject({ configured: false, issuer: null, client_secret: null });
    for (const token of [admin.token, agent.token]) {
      await request(app.url).get('/api/agent/sso').set(auth(token)).expect(403);
      await request(app.url).put('/api/agent/sso').set(auth(token)).send(settings()).expect(403);
    }
    const noSecret = await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send({ ...settings(), client_secret: undefined })
      .expect(422);
    expect(noSecret.body.errors.client_secret).toBeDefined();
    for (const issuer of ['http://10.1.2.3', 'http://localhost:9', 'http://192.168.1.1/realm']) {
      const refused = await request(app.url)
        .put('/api/agent/sso')
        .set(auth(owner.token))
        .send(settings({ issuer }))
        .expect(422);
      expect(Object.keys(refused.body.errors)).toEqual(['issuer']);
    }
    await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send(settings({ allowed_domains: ['not a domain'] }))
      .expect(422);

    const saved = await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send(settings({ allowed_domains: ['JIT.test'], default_role: 'admin' }))
      .expect(200);
    expect(saved.body.data).toMatchObject({
      configured: true,
      issuer: provider.issuer,
      client_id: CLIENT.client_id,
      client_secret: '********',
      allowed_domains: ['jit.test'],
      default_role: 'admin',
      enforce: false,
    });
    const read = await request(app.url).get('/api/agent/sso').set(auth(owner.token)).expect(200);
    expect(read.body.data.client_secret).toBe('********');
    expect(JSON.stringify(read.body)).not.toContain(CLIENT.client_secret);
    const stored = await suite.db.query(
      'SELECT client_secret_sealed FROM sso_settings WHERE organization_id = $1',
      [owner.organization.id],
    );
    expect(stored.rows[0].client_secret_sealed).not.toContain(CLIENT.client_secret);
    // Left out, the secret stays (the sign-in below still works with it).
    await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send({ ...settings({ default_role: 'admin' }), client_secret: undefined })
      .expect(200);
    const audit = await suite.db.query(
      `SELECT changes FROM audit_log WHERE organization_id = $1 AND action = 'sso.updated' ORDER BY id`,
      [owner.organization.id],
    );
    expect(audit.rows).toHaveLength(2);
    expect(JSON.stringify(audit.rows)).not.toContain(CLIENT.client_secret);
    expect(audit.rows[0].changes.after.client_id).toBe(CLIENT.client_id);
    const { response } = await signIn(owner, unique('kept', 'jit.test'));
    expect(response.status).toBe(302);
  });

  it('creates a member with the default role on a first login of an allowed domain, with the session cookie and token', async () => {
    const owner = await organizationWithSso({ default_role: 'admin' });
    const email = unique('newcomer', 'jit.test');
    const { response } = await signIn(owner, email);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${PUBLIC_URL}/`);
    const session = (response.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('scs_session='),
    );
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Strict/);
    const token = sessionOf(response)!;
    const me = await request(app.url).get('/api/agent/me').set(auth(token)).expect(200);
    expect(me.body.user).toMatchObject({
      email,
      role: 'admin',
      name: expect.stringContaining('SSO'),
    });
    expect(me.body.organization.id).toBe(owner.organization.id);
    const team = await request(app.url).get('/api/agent/team').set(auth(owner.token)).expect(200);
    expect(team.body.data.map((m: { email: string }) => m.email)).toContain(email);
    const audit = await suite.db.query(
      `SELECT action, changes FROM audit_log WHERE organization_id = $1 AND target_id = $2 ORDER BY id`,
      [owner.organization.id, me.body.user.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['member.created', 'auth.login']);
    expect(audit.rows[1].changes.after).toEqual({ method: 'sso' });
  });

  it('logs an existing member in, and an existing login of another organization joins but cannot switch out', async () => {
    const owner = await organizationWithSso();
    // A member added by the owner, of a domain that is not allowed to join by itself.
    const member = await addMember(app.url, owner.token, 'agent');
    const first = await signIn(owner, member.email);
    expect(first.response.status).toBe(302);
    const me = await request(app.url)
      .get('/api/agent/me')
      .set(auth(sessionOf(first.response)!))
      .expect(200);
    expect(me.body.user).toMatchObject({ id: member.id, email: member.email, role: 'agent' });
    expect(await loginsOf(member.email)).toBe(1);

    // Someone with a login elsewhere, of an allowed domain: the login joins this organization.
    const elsewhere = await registerOrganization(app.url, 'Elsewhere');
    const email = unique('joiner', 'jit.test');
    await request(app.url)
      .post('/api/agent/team')
      .set(auth(elsewhere.token))
      .send({ name: 'Joiner', email, role: 'agent', password: 'a long password' })
      .expect(201);
    const joined = await signIn(owner, email);
    expect(joined.response.status).toBe(302);
    const token = sessionOf(joined.response)!;
    const mine = await request(app.url).get('/api/agent/me').set(auth(token)).expect(200);
    expect(mine.body.organization.id).toBe(owner.organization.id);
    expect(await loginsOf(email)).toBe(1);
    // The provider of one organization does not vouch for the login's other organizations.
    const switched = await request(app.url)
      .post('/api/agent/auth/switch-organization')
      .set(auth(token))
      .send({ organization_id: elsewhere.organization.id })
      .expect(403);
    expect(switched.body.message).toMatch(/single sign-on/);
    // The password still works as before.
    await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email, password: 'a long password' })
      .expect(200);
  });

  it('refuses a replayed state, and a callback without the browser that started it', async () => {
    const owner = await organizationWithSso();
    const email = unique('replay', 'jit.test');
    const { returned, cookie, response } = await signIn(owner, email);
    expect(response.status).toBe(302);
    toLogin(await callback(returned, cookie), 'expired');

    // Another browser (an attacker's callback handed to a victim) has not the binding cookie.
    const other = await start(owner);
    const otherReturned = await signInAtProvider(other.location.href, unique('csrf', 'jit.test'));
    toLogin(await callback(otherReturned, 'scs_sso=someone-elses'), 'expired');
    // ...and the attempt is used up by that try.
    toLogin(await callback(otherReturned, other.cookie), 'expired');
    toLogin(
      await request(app.url).get('/api/agent/auth/sso/callback?code=x&state=made-up'),
      'expired',
    );
  });

  it('refuses an ID token for another client and one with a wrong nonce, creating nothing', async () => {
    const owner = await organizationWithSso();

    const forOther = await start(owner);
    forOther.location.searchParams.set('client_id', OTHER_CLIENT.client_id);
    const otherEmail = unique('other-client', 'jit.test');
    const otherReturned = await signInAtProvider(forOther.location.href, otherEmail);
    expect(otherReturned.searchParams.get('code')).toBeTruthy();
    toLogin(await callback(otherReturned, forOther.cookie), 'unverified');
    expect(await loginsOf(otherEmail)).toBe(0);

    const wrongNonce = await start(owner);
    wrongNonce.location.searchParams.set('nonce', 'not-the-nonce-the-app-kept');
    const nonceEmail = unique('nonce', 'jit.test');
    const nonceReturned = await signInAtProvider(wrongNonce.location.href, nonceEmail);
    expect(nonceReturned.searchParams.get('code')).toBeTruthy();
    toLogin(await callback(nonceReturned, wrongNonce.cookie), 'unverified');
    expect(await loginsOf(nonceEmail)).toBe(0);
    await logged(
      app,
      (entry) =>
        entry.msg === 'single sign-on answer refused' && /nonce/.test(String(entry.reason)),
    );
  });

  it('refuses an address outside allowed_domains, or unconfirmed, without creating anything', async () => {
    const owner = await organizationWithSso();
    const email = unique('stranger', 'elsewhere.test');
    const { response } = await signIn(owner, email);
    toLogin(response, 'not_allowed');
    expect(await loginsOf(email)).toBe(0);
    const unverified = `unverified.${unique('x', 'jit.test')}`;
    const second = await signIn(owner, unverified);
    toLogin(second.response, 'no_email');
    expect(await loginsOf(unverified)).toBe(0);
    const members = await suite.db.query('SELECT count(*) FROM users WHERE organization_id = $1', [
      owner.organization.id,
    ]);
    expect(Number(members.rows[0].count)).toBe(1);
  });

  it('with enforce, refuses password login for an agent but not for the owner', async () => {
    const owner = await registerOrganization(app.url, 'Enforcing Co');
    const agent = await addMember(app.url, owner.token, 'agent');
    await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send(settings({ enforce: true }))
      .expect(200);
    const refused = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: agent.email, password: agent.password })
      .expect(403);
    expect(refused.body.message).toBe(
      'This organization requires single sign-on (SSO): sign in with SSO instead of a password.',
    );
    await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: owner.user.email, password: owner.password })
      .expect(200);
    // The agent still gets in through the provider.
    const { response } = await signIn(owner, agent.email);
    expect(response.status).toBe(302);
  });

  it('sends an organization without single sign-on back to the login page', async () => {
    const plain = await registerOrganization(app.url, 'Plain');
    const location = toLogin(
      await request(app.url).get(`/api/agent/auth/sso/start?organization=${plain.organization.id}`),
      'not_configured',
    );
    expect(location.searchParams.get('organization')).toBe(String(plain.organization.id));
    await request(app.url).get('/api/agent/auth/sso/start?organization=abc').expect(422);
  });

  it("sends the provider's refusal back to the login page, in words", async () => {
    const owner = await organizationWithSso();
    const { location, cookie } = await start(owner);
    const state = location.searchParams.get('state')!;
    // What a provider answers when the person declines (RFC 6749, 4.1.2.1).
    const refused = await callback(
      new URL(`${REDIRECT_URI}?error=access_denied&state=${encodeURIComponent(state)}`),
      cookie,
    );
    toLogin(refused, 'refused');
    // The browser-binding cookie is cleared either way.
    const cleared = (refused.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('scs_sso='),
    );
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it('reads the discovery document once per organization until its settings change', async () => {
    const owner = await organizationWithSso();
    const before = await provider.discoveries();
    expect((await signIn(owner, unique('one', 'jit.test'))).response.status).toBe(302);
    expect(await provider.discoveries()).toBe(before + 1);
    expect((await signIn(owner, unique('two', 'jit.test'))).response.status).toBe(302);
    expect((await signIn(owner, unique('three', 'jit.test'))).response.status).toBe(302);
    expect(await provider.discoveries()).toBe(before + 1);
    // Saving the settings reads it (to check the issuer) and drops the cached one.
    await request(app.url)
      .put('/api/agent/sso')
      .set(auth(owner.token))
      .send(settings({ client_secret: undefined }))
      .expect(200);
    expect(await provider.discoveries()).toBe(before + 2);
    expect((await signIn(owner, unique('four', 'jit.test'))).response.status).toBe(302);
    expect(await provider.discoveries()).toBe(before + 3);
  });

  it('leaves second factors to the provider: an SSO session sets up none and is not held for one', async () => {
    const owner = await organizationWithSso();
    await suite.db.query('UPDATE organizations SET require_two_factor = true WHERE id = $1', [
      owner.organization.id,
    ]);
    const { response } = await signIn(owner, unique('factor', 'jit.test'));
    const token = sessionOf(response)!;
    // Not held until it sets one up, as a password session would be.
    await request(app.url).get('/api/agent/conversations').set(auth(token)).expect(200);
    const status = await request(app.url)
      .get('/api/agent/me/two-factor')
      .set(auth(token))
      .expect(200);
    expect(status.body.data).toEqual({
      enabled: false,
      recovery_codes_left: 0,
      managed_by_provider: true,
    });
    const refused = await request(app.url)
      .post('/api/agent/me/two-factor')
      .set(auth(token))
      .expect(403);
    expect(refused.body.message).toBe(
      'You signed in with single sign-on: your identity provider manages your second factor.',
    );
    await request(app.url)
      .post('/api/agent/me/two-factor/confirm')
      .set(auth(token))
      .send({ code: '123456' })
      .expect(403);
    // A password session of the owner still may (and is held until it does).
    const own = await request(app.url)
      .get('/api/agent/me/two-factor')
      .set(auth(owner.token))
      .expect(200);
    expect(own.body.data.managed_by_provider).toBe(false);
    await request(app.url).post('/api/agent/me/two-factor').set(auth(owner.token)).expect(200);
  });

  it('sends the browser back to the login page when the provider is down', async () => {
    const owner = await organizationWithSso();
    const { location, cookie } = await start(owner);
    const returned = await signInAtProvider(location.href, unique('down', 'jit.test'));
    // The provider goes away between the sign-in and the code exchange (the last test: the
    // provider stays down).
    await provider.stop();
    toLogin(await callback(returned, cookie), 'unavailable');
    await logged(app, (entry) => entry.msg === 'single sign-on provider unreachable');
  });
});
