import request from 'supertest';
import { addMember, createApiKey, registerOrganization, uniqueEmail } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('identity: agents, organizations, team, sites, API keys', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;

  beforeAll(async () => {
    ({ app, databaseUrl } = suite = await startTestApp({
      PUBLIC_URL: 'https://chat.example.test',
    }));
  });

  afterAll(() => suite?.stop());

  describe('register, login, logout, me', () => {
    it('registers an organization with its owner and a first site, and logs the owner in', async () => {
      const email = uniqueEmail('reg');
      const res = await request(app.url)
        .post('/api/agent/auth/register')
        .send({
          organization_name: 'Globex',
          name: 'Gina',
          email,
          password: 'long enough password',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        status: true,
        code: '201',
        token: expect.stringMatching(/^sca_/),
        user: { id: expect.any(Number), email, name: 'Gina', role: 'owner' },
        organization: { id: expect.any(Number), name: 'Globex', plan: 'business' },
        site: {
          id: expect.any(Number),
          widget_key: expect.stringMatching(/^wk_[0-9A-Za-z]{32}$/),
          timezone: 'UTC',
        },
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/scs_session=sca_/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Secure/);

      const me = await request(app.url).get('/api/agent/me').set(auth(res.body.token)).expect(200);
      expect(me.body).toMatchObject({
        user: { email, role: 'owner' },
        organization: { name: 'Globex' },
      });
    });

    it('names every missing or invalid field with 422', async () => {
      const res = await request(app.url)
        .post('/api/agent/auth/register')
        .send({ email: 'not-an-email', password: 'short' })
        .expect(422);
      expect(res.body).toMatchObject({
        status: false,
        code: '422',
        error_code: 'validation_failed',
      });
      expect(Object.keys(res.body.errors).sort()).toEqual([
        'email',
        'name',
        'organization_name',
        'password',
      ]);
      expect(res.body.message).toBe(
        Object.values(res.body.errors as Record<string, string[]>)[0][0],
      );
    });

    it('refuses a second account with the same email (any case)', async () => {
      const first = await registerOrganization(app.url);
      const res = await request(app.url)
        .post('/api/agent/auth/register')
        .send({
          organization_name: 'Other',
          name: 'X',
          email: first.user.email.toUpperCase(),
          password: 'password123',
        })
        .expect(422);
      expect(res.body.errors.email).toEqual(['The email has already been taken.']);
    });

    it('logs in with the right password, 401 with a wrong one or an unknown email', async () => {
      const org = await registerOrganization(app.url);
      const ok = await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: org.password })
        .expect(200);
      expect(ok.body).toMatchObject({
        token: expect.stringMatching(/^sca_/),
        user: { id: org.user.id },
      });
      expect(String(ok.headers['set-cookie'])).toMatch(/scs_session=.*HttpOnly.*SameSite=Strict/);

      const wrong = await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: 'wrong password' })
        .expect(401);
      expect(wrong.body).toMatchObject({ status: false, error_code: 'unauthenticated' });
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: uniqueEmail(), password: 'whatever1' })
        .expect(401);
    });

    it('accepts the session cookie as well as the bearer token, and logout ends the session', async () => {
      const org = await registerOrganization(app.url);
      const login = await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: org.password })
        .expect(200);
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      await request(app.url).get('/api/agent/me').set('Cookie', cookie).expect(200);

      await request(app.url).post('/api/agent/auth/logout').set(auth(login.body.token)).expect(200);
      const after = await request(app.url)
        .get('/api/agent/me')
        .set(auth(login.body.token))
        .expect(401);
      expect(after.body.message).toBe('Unauthenticated.');
      await request(app.url).get('/api/agent/me').set('Cookie', cookie).expect(401);
      // The registration session is a different one and still works.
      await request(app.url).get('/api/agent/me').set(auth(org.token)).expect(200);
    });

    it('answers 401 without credentials or with a made-up token', async () => {
      await request(app.url).get('/api/agent/me').expect(401);
      await request(app.url).get('/api/agent/me').set(auth('sca_madeup')).expect(401);
      await request(app.url)
        .get('/api/agent/team')
        .set('Cookie', 'scs_session=sca_nope')
        .expect(401);
    });
  });

  describe('team', () => {
    it('lets owners and admins manage members; agents get 403 on management routes', async () => {
      const org = await registerOrganization(app.url);
      const admin = await addMember(app.url, org.token, 'admin');
      const agent = await addMember(app.url, org.token, 'agent');

      const list = await request(app.url).get('/api/agent/team').set(auth(admin.token)).expect(200);
      expect(list.body.data.map((m: { role: string }) => m.role).sort()).toEqual([
        'admin',
        'agent',
        'owner',
      ]);
      expect(JSON.stringify(list.body)).not.toContain('password');

      for (const [method, path] of [
        ['get', '/api/agent/team'],
        ['post', '/api/agent/team'],
        ['patch', `/api/agent/team/${admin.id}`],
        ['delete', `/api/agent/team/${admin.id}`],
        ['get', '/api/agent/sites'],
        ['post', '/api/agent/sites'],
        ['get', '/api/agent/api-keys'],
        ['post', '/api/agent/api-keys'],
      ] as const) {
        const res = await request(app.url)[method](path).set(auth(agent.token)).send({});
        expect([method, path, res.status, res.body.error_code]).toEqual([
          method,
          path,
          403,
          'forbidden',
        ]);
      }
      // Agents still reach their own routes.
      await request(app.url).get('/api/agent/me').set(auth(agent.token)).expect(200);

      const promoted = await request(app.url)
        .patch(`/api/agent/team/${agent.id}`)
        .set(auth(admin.token))
        .send({ role: 'admin' })
        .expect(200);
      expect(promoted.body.data.role).toBe('admin');
    });

    it('keeps the last owner: no demotion (422), no removal (409); only owners manage owners', async () => {
      const org = await registerOrganization(app.url);
      const admin = await addMember(app.url, org.token, 'admin');

      const demote = await request(app.url)
        .patch(`/api/agent/team/${org.user.id}`)
        .set(auth(org.token))
        .send({ role: 'admin' })
        .expect(422);
      expect(demote.body.errors.role).toEqual([
        'The last owner of the organization cannot be demoted.',
      ]);
      await request(app.url)
        .delete(`/api/agent/team/${org.user.id}`)
        .set(auth(org.token))
        .expect(409);

      await request(app.url)
        .patch(`/api/agent/team/${admin.id}`)
        .set(auth(admin.token))
        .send({ role: 'owner' })
        .expect(403);
      await request(app.url)
        .delete(`/api/agent/team/${org.user.id}`)
        .set(auth(admin.token))
        .expect(403);

      // With a second owner, the first may step down.
      const second = await addMember(app.url, org.token, 'owner');
      await request(app.url)
        .patch(`/api/agent/team/${org.user.id}`)
        .set(auth(second.token))
        .send({ role: 'agent' })
        .expect(200);
    });

    it('a removed member can no longer log in and its sessions end', async () => {
      const org = await registerOrganization(app.url);
      const agent = await addMember(app.url, org.token, 'agent');
      await request(app.url).delete(`/api/agent/team/${agent.id}`).set(auth(org.token)).expect(200);
      await request(app.url).get('/api/agent/me').set(auth(agent.token)).expect(401);
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: agent.email, password: agent.password })
        .expect(401);
      await request(app.url).delete(`/api/agent/team/${agent.id}`).set(auth(org.token)).expect(404);
    });

    it("answers 404 for another organization's member", async () => {
      const mine = await registerOrganization(app.url);
      const theirs = await registerOrganization(app.url);
      await request(app.url)
        .patch(`/api/agent/team/${theirs.user.id}`)
        .set(auth(mine.token))
        .send({ name: 'x' })
        .expect(404);
      await request(app.url)
        .delete(`/api/agent/team/${theirs.user.id}`)
        .set(auth(mine.token))
        .expect(404);
      await request(app.url)
        .patch('/api/agent/team/abc')
        .set(auth(mine.token))
        .send({ name: 'x' })
        .expect(404);
    });
  });

  describe('sites', () => {
    it('creates, reads and updates sites; validates the time zone and widget settings', async () => {
      const org = await registerOrganization(app.url);
      const bad = await request(app.url)
        .post('/api/agent/sites')
        .set(auth(org.token))
        .send({ name: 'Shop', timezone: 'Mars/Olympus', allowed_domains: ['bad domain!'] })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['allowed_domains', 'timezone']);

      const created = await request(app.url)
        .post('/api/agent/sites')
        .set(auth(org.token))
        .send({
          name: 'Shop',
          domain: 'shop.example.com',
          timezone: 'Europe/Berlin',
          allowed_domains: ['shop.example.com', 'app:com.example.shop'],
        })
        .expect(201);
      const site = created.body.data;
      expect(site).toMatchObject({
        name: 'Shop',
        timezone: 'Europe/Berlin',
        is_active: true,
        widget_key: expect.stringMatching(/^wk_/),
      });
      expect(site.widget_key).not.toBe(org.site.widget_key);

      const updated = await request(app.url)
        .patch(`/api/agent/sites/${site.id}`)
        .set(auth(org.token))
        .send({
          is_active: false,
          widget_settings: {
            pre_chat_form: {
              enabled: true,
              fields: [{ key: 'company', type: 'text', label: 'Company', required: true }],
            },
          },
        })
        .expect(200);
      expect(updated.body.data).toMatchObject({
        is_active: false,
        timezone: 'Europe/Berlin',
        widget_settings: {
          pre_chat_form: {
            enabled: true,
            delay_minutes: 0,
            fields: [{ key: 'company', builtin: false, required: true }],
          },
          visitor_account_login: { enabled: false },
        },
      });
      const nested = await request(app.url)
        .patch(`/api/agent/sites/${site.id}`)
        .set(auth(org.token))
        .send({ widget_settings: { pre_chat_form: { delay_minutes: -1 } } })
        .expect(422);
      expect(Object.keys(nested.body.errors)).toEqual([
        'widget_settings.pre_chat_form.delay_minutes',
      ]);

      const read = await request(app.url)
        .get(`/api/agent/sites/${site.id}`)
        .set(auth(org.token))
        .expect(200);
      expect(read.body.data.is_active).toBe(false);
      const list = await request(app.url).get('/api/agent/sites').set(auth(org.token)).expect(200);
      expect(list.body.data.map((s: { id: number }) => s.id)).toEqual([org.site.id, site.id]);
    });

    it("answers 404 for another organization's site", async () => {
      const mine = await registerOrganization(app.url);
      const theirs = await registerOrganization(app.url);
      await request(app.url)
        .get(`/api/agent/sites/${theirs.site.id}`)
        .set(auth(mine.token))
        .expect(404);
      await request(app.url)
        .patch(`/api/agent/sites/${theirs.site.id}`)
        .set(auth(mine.token))
        .send({ name: 'x' })
        .expect(404);
    });
  });

  describe('API keys and the public API guard', () => {
    it('creates a key shown once, lists only its prefix, and rejects unknown abilities', async () => {
      const org = await registerOrganization(app.url);
      const bad = await request(app.url)
        .post('/api/agent/api-keys')
        .set(auth(org.token))
        .send({ name: 'k', abilities: ['conversations:read', 'everything:write'] })
        .expect(422);
      expect(Object.keys(bad.body.errors)).toEqual(['abilities']);

      const created = await request(app.url)
        .post('/api/agent/api-keys')
        .set(auth(org.token))
        .send({ name: 'CRM', abilities: ['tickets:read', 'sites:read'] })
        .expect(201);
      const key: string = created.body.plain_text_key;
      expect(key).toMatch(/^scs_live_[0-9A-Za-z]{40}$/);
      expect(created.body.data).toMatchObject({
        name: 'CRM',
        key_prefix: key.slice(0, 12),
        abilities: ['tickets:read', 'sites:read'],
      });

      const list = await request(app.url)
        .get('/api/agent/api-keys')
        .set(auth(org.token))
        .expect(200);
      expect(list.body.data).toHaveLength(1);
      expect(JSON.stringify(list.body)).not.toContain(key);
      expect(list.body.data[0].plain_text_key).toBeUndefined();
    });

    it('authenticates with Authorization: Bearer and with X-Service-Key; GET /me needs no ability', async () => {
      const org = await registerOrganization(app.url);
      const { key } = await createApiKey(app.url, org.token, ['agents:read']);
      for (const headers of [{ Authorization: `Bearer ${key}` }, { 'X-Service-Key': key }]) {
        const res = await request(app.url).get('/api/v1/me').set(headers).expect(200);
        expect(res.body).toMatchObject({
          status: true,
          organization: { id: org.organization.id, name: org.organization.name, plan: 'business' },
          api_key: { key_prefix: key.slice(0, 12), abilities: ['agents:read'] },
          api: {
            version: 'v1',
            base_url: 'https://chat.example.test/api/v1',
            docs_url: 'https://chat.example.test/api/docs',
            openapi_url: 'https://chat.example.test/api/v1/openapi.json',
            postman_url: 'https://chat.example.test/api/v1/postman.json',
            rate_limit_per_minute: 120,
            supports_idempotency: true,
          },
        });
      }
    });

    it('answers 401 Unauthenticated. for a missing, malformed, unknown, agent or revoked key', async () => {
      const org = await registerOrganization(app.url);
      const { id, key } = await createApiKey(app.url, org.token, ['sites:read']);
      const unknown = `scs_live_${'A'.repeat(40)}`;
      for (const headers of [
        {},
        { Authorization: 'Bearer nope' },
        { 'X-Service-Key': unknown },
        auth(org.token),
      ]) {
        const res = await request(app.url).get('/api/v1/me').set(headers).expect(401);
        expect(res.body).toMatchObject({
          status: false,
          message: 'Unauthenticated.',
          code: '401',
          error_code: 'unauthenticated',
        });
      }
      // API keys do not work on the agent API either.
      await request(app.url)
        .get('/api/agent/me')
        .set({ Authorization: `Bearer ${key}` })
        .expect(401);

      await request(app.url).delete(`/api/agent/api-keys/${id}`).set(auth(org.token)).expect(200);
      await request(app.url).get('/api/v1/me').set({ 'X-Service-Key': key }).expect(401);
      await request(app.url).delete(`/api/agent/api-keys/${id}`).set(auth(org.token)).expect(404);
    });

    it('records last_used_at', async () => {
      const org = await registerOrganization(app.url);
      const { key } = await createApiKey(app.url, org.token, ['sites:read']);
      await request(app.url).get('/api/v1/me').set({ 'X-Service-Key': key }).expect(200);
      const second = await request(app.url)
        .get('/api/v1/me')
        .set({ 'X-Service-Key': key })
        .expect(200);
      expect(second.body.api_key.last_used_at).toEqual(expect.any(String));
    });

    it("cannot revoke another organization's key", async () => {
      const mine = await registerOrganization(app.url);
      const theirs = await registerOrganization(app.url);
      const { id, key } = await createApiKey(app.url, theirs.token, ['sites:read']);
      await request(app.url).delete(`/api/agent/api-keys/${id}`).set(auth(mine.token)).expect(404);
      await request(app.url).get('/api/v1/me').set({ 'X-Service-Key': key }).expect(200);
    });
  });

  it('stores no plain key, token or password in any row', async () => {
    const org = await registerOrganization(app.url);
    const member = await addMember(app.url, org.token, 'agent');
    const { key } = await createApiKey(app.url, org.token, ['sites:read']);
    const db = pool(databaseUrl);
    try {
      const tables = await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      );
      let dump = '';
      for (const { table_name } of tables.rows) {
        const rows = await db.query(`SELECT * FROM "${table_name}"`);
        dump += JSON.stringify(rows.rows, (_k, v: unknown) =>
          Buffer.isBuffer(v) ? v.toString('hex') : v,
        );
      }
      expect(dump.length).toBeGreaterThan(1000);
      for (const secret of [
        key,
        key.slice(9),
        org.token,
        member.token,
        org.password,
        member.password,
      ]) {
        expect(dump).not.toContain(secret);
      }
    } finally {
      await db.end();
    }
  });

  it('documents an authentication scheme on every non-public operation', async () => {
    const doc = await request(app.url).get('/api/v1/openapi.json').expect(200);
    const publicOperations = [
      'get /health/live',
      'get /health/ready',
      'get /status.json',
      'post /api/agent/auth/register',
      'post /api/agent/auth/login',
      // The unguessable token in the path is the credential (an `<img src>` sends no header).
      'get /api/attachments/{token}',
      // A mail's List-Unsubscribe link: its unguessable token is the credential (RFC 8058).
      'get /api/email/unsubscribe/{token}',
      'post /api/email/unsubscribe/{token}',
      'post /api/email/unsubscribe/{token}/confirm',
      // Issue 28: a mailed link's token, or the login challenge, is the credential.
      'post /api/agent/auth/accept-invite',
      'post /api/agent/auth/password-reset',
      'post /api/agent/auth/password-reset/confirm',
      'post /api/agent/auth/verify-email',
      'post /api/agent/auth/two-factor',
      // Single sign-on: a browser navigation to the provider and back (state, nonce and PKCE are
      // the credential, bound to the browser by a cookie).
      'get /api/agent/auth/sso/start',
      'get /api/agent/auth/sso/callback',
      // An avatar's unguessable address, shown by the widget to visitors.
      'get /api/avatars/{token}',
    ];
    for (const [path, item] of Object.entries(
      doc.body.paths as Record<string, Record<string, { security?: unknown[] }>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method} ${path}`;
        if (publicOperations.includes(name))
          expect([name, operation.security]).toEqual([name, undefined]);
        else expect([name, (operation.security ?? []).length > 0]).toEqual([name, true]);
      }
    }
  });
});

describe('SIGNUP_ENABLED=false', () => {
  it('refuses registration with 403 while login still works', async () => {
    const databaseUrl = await createTestDatabase();
    const open = await startApp({ DATABASE_URL: databaseUrl });
    const org = await registerOrganization(open.url);
    await open.stop();
    const closed = await startApp({ DATABASE_URL: databaseUrl, SIGNUP_ENABLED: 'false' });
    try {
      const res = await request(closed.url)
        .post('/api/agent/auth/register')
        .send({ organization_name: 'X', name: 'Y', email: uniqueEmail(), password: 'password123' })
        .expect(403);
      expect(res.body).toMatchObject({
        error_code: 'forbidden',
        message: 'Sign-up is disabled on this server.',
      });
      await request(closed.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: org.password })
        .expect(200);
    } finally {
      await closed.stop();
      await dropTestDatabase(databaseUrl);
    }
  });
});
