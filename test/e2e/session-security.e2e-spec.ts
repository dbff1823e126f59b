import { randomBytes, scryptSync } from 'node:crypto';
import type { Pool } from 'pg';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect, type TestSocket } from '../utils/sockets';

const PUBLIC_URL = 'https://chat.example.test';
const DASHBOARD = 'https://dashboard.example.test';

/**
 * Issue 15: an agent's sockets follow its session (logout, logout everywhere, password change,
 * removal, role change, expiry, and a session ended behind the app's back), and the agent
 * credentials (cookie requests from the dashboard only, password change, scrypt rehash).
 */
describe('sessions and agent credentials', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;
  let direct: string;
  let db: Pool;
  let org: Registered;
  const sockets: TestSocket[] = [];

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  const open = async (token: string) => {
    const socket = await connect(direct, '/agent', token);
    sockets.push(socket);
    return socket;
  };

  /** A further session of the same agent: its token. */
  const logIn = async (who: { email: string; password: string }) =>
    (
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: who.email, password: who.password })
        .expect(200)
    ).body.token as string;

  /** Resolves once the socket is closed by the server; fails after `ms`. */
  const closedWithin = (socket: TestSocket, ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (!socket.socket.connected) return resolve();
      const timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms);
      socket.socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        if (reason === 'io server disconnect') resolve();
        else reject(new Error(`socket closed for another reason: ${reason}`));
      });
    });

  /** A visitor message of `org`'s site, which every connected agent of it would hear. */
  const visitorMessage = async (body: string) => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key })
        .expect(200)
    ).body as { session_token: string };
    const sent = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(session.session_token))
      .send({ body })
      .expect(201);
    return sent.body.id as number;
  };

  /** Proves the open `watcher` hears it (so silence on `gone` means something). */
  const expectNothingMore = async (gone: TestSocket, watcher: TestSocket) => {
    const id = await visitorMessage('after the end');
    await watcher.next('message.created', (m: { id: number }) => m.id === id);
    expect(gone.received<{ id: number }>('message.created').map((m) => m.id)).not.toContain(id);
  };

  beforeAll(async () => {
    ({ app, db, direct, databaseUrl } = suite = await startTestApp({
      PUBLIC_URL,
      DASHBOARD_ORIGINS: DASHBOARD,
    }));
    org = await registerOrganization(app.url, 'Session Co.');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(() => suite?.stop());

  describe('an agent socket', () => {
    it('closes within a second of the agent leaving the team, and hears nothing more', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      const socket = await open(member.token);
      const watcher = await open(org.token);
      const closed = closedWithin(socket, 1000);
      await request(app.url)
        .delete(`/api/agent/team/${member.id}`)
        .set(bearer(org.token))
        .expect(200);
      await closed;
      await expectNothingMore(socket, watcher);
      await expect(connect(direct, '/agent', member.token)).rejects.toThrow('Unauthenticated.');
    });

    it('closes within a second of logout, and only the sockets of that session', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      const second = await logIn(member);
      const socket = await open(member.token);
      const other = await open(second);
      const closed = closedWithin(socket, 1000);
      await request(app.url).post('/api/agent/auth/logout').set(bearer(member.token)).expect(200);
      await closed;
      await expectNothingMore(socket, other);
      expect(other.socket.connected).toBe(true);
    });

    it('closes within a second of a role change, and hears nothing more on it', async () => {
      const member = await addMember(app.url, org.token, 'admin');
      const socket = await open(member.token);
      const watcher = await open(org.token);
      const closed = closedWithin(socket, 1000);
      await request(app.url)
        .patch(`/api/agent/team/${member.id}`)
        .set(bearer(org.token))
        .send({ role: 'agent' })
        .expect(200);
      await closed;
      await expectNothingMore(socket, watcher);
      // The session itself goes on: a new socket opens with the new role.
      await open(member.token);
    });

    it('closes when its session runs out', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      await db.query(
        `UPDATE agent_sessions SET expires_at = now() + interval '1500 milliseconds'
          WHERE user_id = $1`,
        [member.id],
      );
      const socket = await open(member.token);
      await closedWithin(socket, 4000);
      await request(app.url).get('/api/agent/me').set(bearer(member.token)).expect(401);
    });

    it('re-checks its session on every event: one ended behind its back is refused and closed', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      const socket = await open(member.token);
      await expect(socket.ask('sync', {})).resolves.toMatchObject({ status: true });
      await db.query(`DELETE FROM agent_sessions WHERE user_id = $1`, [member.id]);
      // Believed for up to a second after the last check.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const closed = closedWithin(socket, 1000);
      await expect(socket.ask('sync', {})).resolves.toMatchObject({
        status: false,
        error_code: 'unauthenticated',
      });
      await closed;
    });
  });

  describe('a widget socket', () => {
    it('is refused and closed at its next event once its site is switched off', async () => {
      const owner = await registerOrganization(app.url, 'Switched Off Inc.');
      const session = (
        await request(app.url)
          .post('/api/widget/init')
          .send({ widget_key: owner.site.widget_key })
          .expect(200)
      ).body as { session_token: string };
      const socket = await connect(direct, '/widget', session.session_token);
      sockets.push(socket);
      await expect(socket.ask('sync', {})).resolves.toMatchObject({ status: true });
      await request(app.url)
        .patch(`/api/agent/sites/${owner.site.id}`)
        .set(bearer(owner.token))
        .send({ is_active: false })
        .expect(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const closed = closedWithin(socket, 1000);
      await expect(socket.ask('sync', {})).resolves.toMatchObject({
        status: false,
        error_code: 'unauthenticated',
      });
      await closed;
    });
  });

  describe('cookie requests', () => {
    const cookieOf = async (who: { email: string; password: string }) => {
      const login = await request(app.url).post('/api/agent/auth/login').send(who).expect(200);
      return String(login.headers['set-cookie']).split(';')[0];
    };

    it('change something only from the dashboard origins, as JSON; bearer requests are not checked', async () => {
      const cookie = await cookieOf({ email: org.user.email, password: org.password });
      const create = (headers: Record<string, string>) =>
        request(app.url)
          .post('/api/agent/api-keys')
          .set({ Cookie: cookie, ...headers })
          .send(JSON.stringify({ name: 'cookie key', abilities: ['sites:read'] }));

      const foreign = await create({
        Origin: 'https://evil.example',
        'Content-Type': 'application/json',
      }).expect(403);
      expect(foreign.body).toMatchObject({ status: false, error_code: 'forbidden' });
      await create({ 'Content-Type': 'application/json' }).expect(403);
      await create({ Origin: PUBLIC_URL, 'Content-Type': 'text/plain' }).expect(403);
      await create({ Origin: PUBLIC_URL, 'Content-Type': 'application/json' }).expect(201);
      await create({ Origin: DASHBOARD, 'Content-Type': 'application/json' }).expect(201);
      // Reading needs no origin.
      await request(app.url).get('/api/agent/me').set('Cookie', cookie).expect(200);
      // Without a body there is no type to check (fetch's bodyless POST); the origin still counts.
      await request(app.url)
        .post('/api/agent/auth/logout')
        .set({ Cookie: cookie, Origin: 'https://evil.example' })
        .expect(403);
      await request(app.url)
        .post('/api/agent/auth/logout')
        .set({ Cookie: cookie, Origin: DASHBOARD })
        .expect(200);
      await request(app.url).get('/api/agent/me').set('Cookie', cookie).expect(401);
      await request(app.url)
        .post('/api/agent/api-keys')
        .set({ ...bearer(org.token), Origin: 'https://evil.example' })
        .send({ name: 'bearer key', abilities: ['sites:read'] })
        .expect(201);
    });
  });

  describe('POST /api/agent/auth/password', () => {
    it('needs the current password, then ends every other session and its sockets', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      const other = await logIn(member);
      const otherSocket = await open(other);
      const ownSocket = await open(member.token);

      const wrong = await request(app.url)
        .post('/api/agent/auth/password')
        .set(bearer(member.token))
        .send({ current_password: 'not-my-password', new_password: 'a brand new passphrase' })
        .expect(422);
      expect(Object.keys(wrong.body.errors)).toEqual(['current_password']);
      await request(app.url)
        .post('/api/agent/auth/password')
        .set(bearer(member.token))
        .send({ current_password: member.password, new_password: 'short' })
        .expect(422);

      const closed = closedWithin(otherSocket, 1000);
      const changed = await request(app.url)
        .post('/api/agent/auth/password')
        .set(bearer(member.token))
        .send({ current_password: member.password, new_password: 'a brand new passphrase' })
        .expect(200);
      expect(changed.body.message).toBe('Password changed.');
      await closed;
      await request(app.url).get('/api/agent/me').set(bearer(other)).expect(401);
      await request(app.url).get('/api/agent/me').set(bearer(member.token)).expect(200);
      expect(ownSocket.socket.connected).toBe(true);
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: member.email, password: member.password })
        .expect(401);
      await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: member.email, password: 'a brand new passphrase' })
        .expect(200);
    });
  });

  describe('POST /api/agent/auth/logout-all', () => {
    it('ends every session of the agent, this one included, and closes all its sockets', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      const other = await logIn(member);
      const first = await open(member.token);
      const second = await open(other);
      const watcher = await open(org.token);
      const closed = Promise.all([closedWithin(first, 1000), closedWithin(second, 1000)]);
      const res = await request(app.url)
        .post('/api/agent/auth/logout-all')
        .set(bearer(member.token))
        .expect(200);
      expect(res.body.message).toBe('Logged out everywhere.');
      expect(String(res.headers['set-cookie'])).toMatch(/scs_session=;/);
      await closed;
      await request(app.url).get('/api/agent/me').set(bearer(member.token)).expect(401);
      await request(app.url).get('/api/agent/me').set(bearer(other)).expect(401);
      await expectNothingMore(first, watcher);
      // Other agents keep theirs.
      await request(app.url).get('/api/agent/me').set(bearer(org.token)).expect(200);
    });
  });

  describe('password hashes', () => {
    it('made at an older, lower cost still log in, and are made again at the current cost', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      // What the service stored before this change: scrypt N=2^14.
      const salt = randomBytes(16);
      const hash = scryptSync(member.password, salt, 64, { N: 16384, r: 8, p: 1 });
      const old = ['scrypt', 16384, 8, 1, salt.toString('base64'), hash.toString('base64')].join(
        '$',
      );
      await db.query(
        `UPDATE logins SET password_hash = $2 WHERE id = (SELECT login_id FROM users WHERE id = $1)`,
        [member.id, old],
      );

      // An instance at the production default (OWASP: N=2^17, r=8, p=1) on the same database.
      const strict = await startApp({
        DATABASE_URL: databaseUrl,
        PUBLIC_URL,
        PASSWORD_SCRYPT_N: '131072',
        WORKERS_ENABLED: 'false',
      });
      try {
        await request(strict.url)
          .post('/api/agent/auth/login')
          .send({ email: member.email, password: member.password })
          .expect(200);
        const stored = await eventually(async () => {
          const { rows } = await db.query<{ password_hash: string }>(
            `SELECT l.password_hash FROM logins l JOIN users u ON u.login_id = l.id WHERE u.id = $1`,
            [member.id],
          );
          return rows[0].password_hash !== old && rows[0].password_hash;
        });
        expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
        await request(strict.url)
          .post('/api/agent/auth/login')
          .send({ email: member.email, password: member.password })
          .expect(200);
        await request(strict.url)
          .post('/api/agent/auth/login')
          .send({ email: member.email, password: 'wrong password' })
          .expect(401);
      } finally {
        await strict.stop();
      }
    });
  });
});
