import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Entry {
  id: number;
  actor: { type: string; id: number | null; name: string | null };
  action: string;
  target: { type: string; id: string | null; label: string | null };
  changes: Record<string, Record<string, unknown> | null>;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  created_at: string;
}

/**
 * The audit log (DESIGN section 12, issue 28): each change writes its row in its own
 * transaction, with actor, target, before/after (secrets masked), client address, user agent and
 * request id; the database refuses to update or delete a row, except the retention job.
 */
describe('audit log', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({
      AUDIT_RETENTION_DAYS: '30',
      RETENTION_EVERY_SECONDS: '1',
    }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterAll(() => suite?.stop());

  async function entries(token: string, query: Record<string, string> = {}): Promise<Entry[]> {
    const res = await request(app.url)
      .get('/api/agent/audit-log')
      .query(query)
      .set(auth(token))
      .expect(200);
    return res.body.data as Entry[];
  }

  it('records an organization setting changed, before and after, and nothing for a change to nothing', async () => {
    const other = await registerOrganization(app.url, 'Settings');
    await request(app.url)
      .patch('/api/agent/organization')
      .set(auth(other.token))
      .send({ require_two_factor: false, name: 'Settings' })
      .expect(200);
    expect(await entries(other.token, { action: 'organization.updated' })).toEqual([]);
    await request(app.url)
      .patch('/api/agent/organization')
      .set(auth(other.token))
      .send({ name: 'Settings Ltd', require_two_factor: false })
      .expect(200);
    const [updated] = await entries(other.token, { action: 'organization.updated' });
    expect(updated).toMatchObject({
      actor: { type: 'user', id: other.user.id },
      target: { type: 'organization', id: String(other.organization.id), label: 'Settings Ltd' },
      changes: { before: { name: 'Settings' }, after: { name: 'Settings Ltd' } },
    });
  });

  it('records an API key created and revoked, with who, from where and the secret masked', async () => {
    const created = await request(app.url)
      .post('/api/agent/api-keys')
      .set(auth(org.token))
      .set('User-Agent', 'audit-test/1.0')
      .set('X-Request-Id', 'req-audit-0001')
      .send({ name: 'CRM', abilities: ['tickets:read'] })
      .expect(201);
    const keyId = created.body.data.id as number;
    await request(app.url).delete(`/api/agent/api-keys/${keyId}`).set(auth(org.token)).expect(200);

    const [revoked, made] = await entries(org.token, { target_type: 'api_key' });
    expect(made).toMatchObject({
      actor: { type: 'user', id: org.user.id, name: 'Olivia Owner' },
      action: 'api_key.created',
      target: { type: 'api_key', id: String(keyId), label: 'CRM' },
      changes: { after: { name: 'CRM', abilities: ['tickets:read'] } },
      user_agent: 'audit-test/1.0',
      request_id: 'req-audit-0001',
    });
    expect(made.ip).toMatch(/127\.0\.0\.1/);
    expect(JSON.stringify(made)).not.toContain(created.body.plain_text_key);
    expect(revoked).toMatchObject({ action: 'api_key.revoked', target: { id: String(keyId) } });
  });

  it('masks a webhook secret and keeps only the changed fields of an update', async () => {
    const created = await request(app.url)
      .post('/api/agent/webhooks')
      .set(auth(org.token))
      .send({ url: 'https://hooks.example.test/in', events: ['conversation.started'] })
      .expect(201);
    const id = created.body.data.id as number;
    await request(app.url)
      .patch(`/api/agent/webhooks/${id}`)
      .set(auth(org.token))
      .send({ is_active: false })
      .expect(200);
    const [updated, made] = await entries(org.token, { target_type: 'webhook' });
    expect(created.body.signing_secret).toMatch(/^whsec_/);
    expect(made.changes.after).toMatchObject({ secret: '[masked]' });
    expect(JSON.stringify(made)).not.toContain(created.body.signing_secret as string);
    expect(updated).toMatchObject({
      action: 'webhook.updated',
      changes: { before: { is_active: true }, after: { is_active: false } },
    });
  });

  it('records sign-in, a failed sign-in, member creation, role changes and removals', async () => {
    const member = await addMember(app.url, org.token, 'agent');
    await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: member.email, password: 'wrong-password-1' })
      .expect(401);
    await request(app.url)
      .patch(`/api/agent/team/${member.id}`)
      .set(auth(org.token))
      .send({ role: 'admin' })
      .expect(200);
    await request(app.url).delete(`/api/agent/team/${member.id}`).set(auth(org.token)).expect(200);

    const actions = (await entries(org.token, { target_type: 'member' })).map((entry) => [
      entry.action,
      entry.actor.type,
      entry.actor.id,
    ]);
    expect(actions.slice(0, 5)).toEqual([
      ['member.removed', 'user', org.user.id],
      ['member.role_changed', 'user', org.user.id],
      ['auth.login_failed', 'user', member.id],
      ['auth.login', 'user', member.id],
      ['member.created', 'user', org.user.id],
    ]);
    const [roleChange] = await entries(org.token, { action: 'member.role_changed' });
    expect(roleChange.changes).toEqual({ before: { role: 'agent' }, after: { role: 'admin' } });
    // The owner's own sign-up is its first row.
    const signup = await entries(org.token, {
      action: 'member.created',
      actor_id: String(org.user.id),
    });
    expect(signup.at(-1)).toMatchObject({ target: { id: String(org.user.id) } });
  });

  it('records site changes with the fields that changed', async () => {
    await request(app.url)
      .patch(`/api/agent/sites/${org.site.id}`)
      .set(auth(org.token))
      .send({ name: 'Acme Help' })
      .expect(200);
    const [site] = await entries(org.token, { target_type: 'site' });
    expect(site).toMatchObject({
      action: 'site.updated',
      target: { id: String(org.site.id), label: 'Acme Help' },
      changes: { before: { name: 'Acme' }, after: { name: 'Acme Help' } },
    });
  });

  it('filters by actor, action, target type and time, pages, and downloads CSV', async () => {
    const all = await entries(org.token);
    expect(all.length).toBeGreaterThan(5);
    const page = await request(app.url)
      .get('/api/agent/audit-log')
      .query({ per_page: 2 })
      .set(auth(org.token))
      .expect(200);
    expect(page.body).toMatchObject({ per_page: 2, total: all.length, current_page: 1 });
    expect(page.body.links.next).toContain('page=2');

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await entries(org.token, { from: future })).toEqual([]);
    expect((await entries(org.token, { to: future })).length).toBe(all.length);
    expect(await entries(org.token, { actor_id: '999999' })).toEqual([]);

    const csv = await request(app.url)
      .get('/api/agent/audit-log')
      .query({ format: 'csv', action: 'api_key.created' })
      .set(auth(org.token))
      .expect(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('audit-log.csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,actor_type,actor_id,actor_name,action,target_type,target_id,target_label,changes,ip,user_agent,request_id',
    );
    expect(lines.slice(1).every((line) => line.includes(',api_key.created,'))).toBe(true);
    expect(lines).toHaveLength(2);

    const bad = await request(app.url)
      .get('/api/agent/audit-log')
      .query({ from: 'yesterday', actor_id: 'x' })
      .set(auth(org.token))
      .expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['actor_id', 'from']);
  });

  it('is for owners and admins only, and each organization sees its own', async () => {
    const agent = await addMember(app.url, org.token, 'agent');
    const admin = await addMember(app.url, org.token, 'admin');
    await request(app.url).get('/api/agent/audit-log').set(auth(agent.token)).expect(403);
    await request(app.url).get('/api/agent/audit-log').expect(401);
    expect((await entries(admin.token)).length).toBeGreaterThan(0);
    const other = await registerOrganization(app.url, 'Globex');
    const theirs = await entries(other.token);
    expect(theirs.map((entry) => entry.action)).toEqual(['site.created', 'member.created']);
  });

  it('refuses an update or a delete made by hand in SQL; only the retention job deletes', async () => {
    const [{ id }] = (
      await suite.db.query<{ id: string }>(
        'SELECT id FROM audit_log WHERE organization_id = $1 ORDER BY id LIMIT 1',
        [org.organization.id],
      )
    ).rows;
    await expect(
      suite.db.query(`UPDATE audit_log SET action = 'nothing.happened' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only/);
    await expect(suite.db.query(`DELETE FROM audit_log WHERE id = $1`, [id])).rejects.toThrow(
      /append-only/,
    );
    await expect(suite.db.query(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    const still = await suite.db.query('SELECT action FROM audit_log WHERE id = $1', [id]);
    expect(still.rows).toHaveLength(1);

    // The retention job's way: inside a transaction that says so.
    const client = await suite.db.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL audit_log.retention = 'on'`);
      await client.query(`DELETE FROM audit_log WHERE id = $1`, [id]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    // The setting does not outlive its transaction.
    await expect(suite.db.query(`DELETE FROM audit_log WHERE id = $1`, [id])).rejects.toThrow(
      /append-only/,
    );
  });

  it('writes no row for a change that failed (same transaction)', async () => {
    const before = await entries(org.token);
    // Refused before anything is written: the last owner cannot be demoted.
    await request(app.url)
      .patch(`/api/agent/team/${org.user.id}`)
      .set(auth(org.token))
      .send({ role: 'agent' })
      .expect(422);
    // Refused at COMMIT, after the site's row and its audit row were written: a deferred
    // constraint trigger fails the transaction, and the audit row goes with it.
    await suite.db.query(`
      CREATE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name = 'Refused name' THEN RAISE EXCEPTION 'refused at commit'; END IF;
        RETURN NEW;
      END $$`);
    await suite.db.query(`
      CREATE CONSTRAINT TRIGGER audit_test_refuse AFTER UPDATE ON sites
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_test_refuse()`);
    try {
      // Straight to the app: the document promises no 500, rightly, and this one is forced.
      await request(suite.direct)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set(auth(org.token))
        .send({ name: 'Refused name' })
        .expect(500);
    } finally {
      await suite.db.query(`DROP TRIGGER audit_test_refuse ON sites`);
      await suite.db.query(`DROP FUNCTION audit_test_refuse()`);
    }
    expect(await entries(org.token)).toEqual(before);
    const site = await suite.db.query('SELECT name FROM sites WHERE id = $1', [org.site.id]);
    expect(site.rows[0].name).toBe('Acme Help');
  });

  it('the retention job deletes rows older than AUDIT_RETENTION_DAYS, and only those', async () => {
    await suite.db.query(
      `INSERT INTO audit_log (organization_id, actor_type, action, target_type, created_at)
       VALUES ($1, 'system', 'old.thing', 'site', now() - interval '31 days'),
              ($1, 'system', 'recent.thing', 'site', now() - interval '29 days')`,
      [org.organization.id],
    );
    const left = async () =>
      (
        await suite.db.query<{ action: string }>(
          `SELECT action FROM audit_log WHERE action IN ('old.thing', 'recent.thing')`,
        )
      ).rows.map((row) => row.action);
    const deadline = Date.now() + 20_000;
    while ((await left()).includes('old.thing') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await left()).toEqual(['recent.thing']);
  });
});
