import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { QueryRunner } from 'typeorm';
import { PlatformAdminsByLogin1764430000000 } from '../../src/database/migrations/1764430000000-PlatformAdminsByLogin';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';

/**
 * Issue 40, point 1: the migration that moves platform administrators from addresses to logins.
 * Run on a database taken back to the schema before it, with rows of that shape: how each login
 * came to be and whether a mailed link proved its address are read from what the tables kept, and
 * only the grants a login truly holds survive.
 */
describe('platform administration: the migration to administrators by login', () => {
  let databaseUrl: string;
  let db: Pool;
  const migration = new PlatformAdminsByLogin1764430000000();
  const runner = () =>
    ({
      query: (text: string, parameters?: unknown[]) => db.query(text, parameters),
    }) as unknown as QueryRunner;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = pool(databaseUrl);
  });

  afterAll(async () => {
    await db?.end();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  const one = async <T>(text: string, parameters: unknown[] = []) =>
    (await db.query(text, parameters)).rows[0] as T;

  /** A login of the old shape, made at `createdAt`, with `confirmed` its email_verified_at. */
  const login = (email: string, createdAt: string, confirmed: boolean) =>
    one<{ id: string }>(
      `INSERT INTO logins (email, password_hash, email_verified_at, created_at)
       VALUES ($1, 'hash', CASE WHEN $3 THEN now() END, $2) RETURNING id`,
      [email, createdAt, confirmed],
    ).then((row) => row.id);
  const organization = (name: string) =>
    one<{ id: string }>(`INSERT INTO organizations (name, plan) VALUES ($1, 'free') RETURNING id`, [
      name,
    ]).then((row) => row.id);
  const member = (organizationId: string, loginId: string, email: string, role = 'agent') =>
    one<{ id: string }>(
      `INSERT INTO users (organization_id, login_id, name, email, role)
       VALUES ($1, $2, $3, $3, $4) RETURNING id`,
      [organizationId, loginId, email, role],
    ).then((row) => row.id);
  const usedLink = (loginId: string, purpose: 'email_verification' | 'password_reset') =>
    db.query(
      `INSERT INTO login_tokens (login_id, purpose, token_hash, expires_at, used_at)
       VALUES ($1, $2, $3, now() + interval '1 hour', now())`,
      [loginId, purpose, randomBytes(32)],
    );
  const grant = (email: string, createdAt: string) =>
    db.query(`INSERT INTO platform_admins (email, granted_by, created_at) VALUES ($1, 'cli', $2)`, [
      email,
      createdAt,
    ]);

  it('records how each login came to be and which a link proved, and keeps only the grants its login holds', async () => {
    await migration.down(runner());
    const early = '2025-01-01T00:00:00Z';
    const granted = '2025-02-01T00:00:00Z';
    const late = '2025-03-01T00:00:00Z';
    const at = (label: string) => `${label}-${randomBytes(3).toString('hex')}@example.test`;
    const emails = {
      ops: at('ops'),
      legacy: at('legacy'),
      added: at('added'),
      invited: at('invited'),
      unconfirmed: at('unconfirmed'),
      reset: at('reset'),
      nobody: at('nobody'),
    };

    // The operators signed up (organization A's first member) and used the confirmation link.
    const a = await organization('A');
    const ops = await login(emails.ops, late, true);
    const opsMember = await member(a, ops, emails.ops, 'owner');
    await usedLink(ops, 'email_verification');
    // A's owner added a member at a granted address after the grant: confirmed by fiat only.
    const added = await login(emails.added, late, true);
    await member(a, added, emails.added);
    // A newcomer A invited: the invitation link proved the address.
    const invited = await login(emails.invited, late, true);
    const invitedMember = await member(a, invited, emails.invited);
    await db.query(
      `INSERT INTO invitations (organization_id, email, role, token_hash, expires_at, accepted_at, accepted_user_id)
       VALUES ($1, $2, 'agent', $3, now() + interval '1 day', now(), $4)`,
      [a, emails.invited, randomBytes(32), invitedMember],
    );
    // B's founder from before verification existed (confirmed by issue 28's migration), granted
    // after it had its login; B's owner then added a member who has since reset its password.
    const b = await organization('B');
    const legacy = await login(emails.legacy, early, true);
    await member(b, legacy, emails.legacy, 'owner');
    const reset = await login(emails.reset, late, true);
    await member(b, reset, emails.reset);
    await usedLink(reset, 'password_reset');
    // C's founder never confirmed its address.
    const c = await organization('C');
    const unconfirmed = await login(emails.unconfirmed, early, false);
    await member(c, unconfirmed, emails.unconfirmed, 'owner');
    for (const email of Object.values(emails)) await grant(email, granted);
    await db.query(
      `INSERT INTO platform_operator_log (actor_type, actor_id, actor_email, action, target_type, target_id)
       VALUES ('user', $1, $2, 'organization.suspended', 'organization', $3),
              ('cli', NULL, NULL, 'platform_admin.granted', 'platform_admin', $2)`,
      [opsMember, emails.ops, b],
    );

    await migration.up(runner());

    const logins = await db.query<{ id: string; origin: string; linked: boolean }>(
      `SELECT id::text, origin, email_verified_by_link_at IS NOT NULL AS linked
         FROM logins WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [[ops, added, invited, legacy, reset, unconfirmed]],
    );
    expect(logins.rows).toEqual([
      { id: ops, origin: 'signup', linked: true },
      { id: added, origin: 'team', linked: false },
      { id: invited, origin: 'invitation', linked: true },
      { id: legacy, origin: 'signup', linked: false },
      { id: reset, origin: 'team', linked: true },
      { id: unconfirmed, origin: 'signup', linked: false },
    ]);
    // Kept: proven by a link (ops, the invited member, the reset one), or granted once the login
    // existed (legacy). Dropped: the member added after its address was granted, the unconfirmed
    // sign-up, and the address no login has.
    const admins = await db.query<{ login_id: string; granted_by: string; created_at: Date }>(
      `SELECT login_id::text, granted_by, created_at FROM platform_admins ORDER BY login_id`,
    );
    expect(admins.rows).toEqual(
      [ops, invited, legacy, reset].map((id) => ({
        login_id: id,
        granted_by: 'cli',
        created_at: new Date(granted),
      })),
    );
    const log = await db.query<{ actor_type: string; actor_login_id: string | null }>(
      `SELECT actor_type, actor_login_id::text FROM platform_operator_log
        WHERE actor_id = $1 OR target_id = $2 ORDER BY id`,
      [opsMember, emails.ops],
    );
    expect(log.rows).toEqual([
      { actor_type: 'user', actor_login_id: ops },
      { actor_type: 'cli', actor_login_id: null },
    ]);
    // Still append-only; a member's line without its login is refused.
    await expect(db.query(`UPDATE platform_operator_log SET action = 'x'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(
      db.query(
        `INSERT INTO platform_operator_log (actor_type, actor_id, action, target_type, target_id)
         VALUES ('user', $1, 'organization.resumed', 'organization', '1')`,
        [opsMember],
      ),
    ).rejects.toThrow(/platform_operator_log_user_actor_check/);
    // A grant names a login that exists.
    await expect(
      db.query(`INSERT INTO platform_admins (login_id, granted_by) VALUES (999999999, 'cli')`),
    ).rejects.toThrow(/foreign key/);

    // And back: the grants by their logins' addresses.
    await migration.down(runner());
    const back = await db.query<{ email: string }>(
      `SELECT email FROM platform_admins ORDER BY email`,
    );
    expect(back.rows.map((row) => row.email)).toEqual(
      [emails.ops, emails.invited, emails.legacy, emails.reset].sort(),
    );
    await migration.up(runner());
  });
});
