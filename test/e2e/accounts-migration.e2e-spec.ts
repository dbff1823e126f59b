import type { Pool } from 'pg';
import type { QueryRunner } from 'typeorm';
import { LoginsAndInvitations1764201000000 } from '../../src/database/migrations/1764201000000-LoginsAndInvitations';
import { MemberAvatars1764201100000 } from '../../src/database/migrations/1764201100000-MemberAvatars';
import { TwoFactor1764201200000 } from '../../src/database/migrations/1764201200000-TwoFactor';
import { PlatformAdminsByLogin1764430000000 } from '../../src/database/migrations/1764430000000-PlatformAdminsByLogin';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';

/**
 * Issue 28: the migration that moves each member's address and password to a login, and back.
 * Run on a database taken back to the schema before it, with rows of that shape.
 */
describe('accounts: the logins migration', () => {
  let databaseUrl: string;
  let db: Pool;
  const migrations = [
    new LoginsAndInvitations1764201000000(),
    new MemberAvatars1764201100000(),
    new TwoFactor1764201200000(),
    // Later, but built on logins (how each came to be; grants name them).
    new PlatformAdminsByLogin1764430000000(),
  ];
  const runner = () =>
    ({
      query: (text: string, parameters?: unknown[]) => db.query(text, parameters),
    }) as unknown as QueryRunner;
  const down = async () => {
    for (const migration of [...migrations].reverse()) await migration.down(runner());
  };
  const up = async () => {
    for (const migration of migrations) await migration.up(runner());
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = pool(databaseUrl);
  });

  afterAll(async () => {
    await db?.end();
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  it('makes one login per address from the members, keeps the active password, and goes back', async () => {
    await down();
    const orgs = await db.query<{ id: string }>(
      `INSERT INTO organizations (name, plan) VALUES ('A', 'free'), ('B', 'free') RETURNING id`,
    );
    const [a, b] = orgs.rows.map((row) => row.id);
    const users = await db.query<{ id: string }>(
      `INSERT INTO users (organization_id, name, email, password_hash, role, removed_at) VALUES
         ($1, 'Alice', 'alice@example.test', 'hash-active', 'owner', NULL),
         ($2, 'Alice old', 'ALICE@example.test', 'hash-removed', 'agent', now()),
         ($2, 'Bob', 'bob@example.test', 'hash-bob', 'owner', NULL)
       RETURNING id`,
      [a, b],
    );
    const [alice, aliceOld, bob] = users.rows.map((row) => row.id);

    await up();
    const logins = await db.query(
      `SELECT lower(email) AS email, password_hash, email_verified_at IS NOT NULL AS verified
         FROM logins ORDER BY 1`,
    );
    expect(logins.rows).toEqual([
      { email: 'alice@example.test', password_hash: 'hash-active', verified: true },
      { email: 'bob@example.test', password_hash: 'hash-bob', verified: true },
    ]);
    // Alice founded A; Bob came to B after Alice's old membership there, so B made his login.
    // No mailed link ever reached either address.
    const origins = await db.query(
      `SELECT lower(email) AS email, origin, email_verified_by_link_at FROM logins ORDER BY 1`,
    );
    expect(origins.rows).toEqual([
      { email: 'alice@example.test', origin: 'signup', email_verified_by_link_at: null },
      { email: 'bob@example.test', origin: 'team', email_verified_by_link_at: null },
    ]);
    const members = await db.query(
      `SELECT u.id::text AS id, lower(l.email) AS login FROM users u JOIN logins l ON l.id = u.login_id ORDER BY u.id`,
    );
    expect(members.rows).toEqual([
      { id: alice, login: 'alice@example.test' },
      { id: aliceOld, login: 'alice@example.test' },
      { id: bob, login: 'bob@example.test' },
    ]);
    const columns = await db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'password_hash'`,
    );
    expect(columns.rows).toEqual([]);

    // Alice joins B too: back down, the later membership of the login ends, the password returns.
    const aliceLogin = await db.query<{ login_id: string }>(
      `SELECT login_id FROM users WHERE id = $1`,
      [alice],
    );
    const joined = await db.query<{ id: string }>(
      `INSERT INTO users (organization_id, login_id, name, email, role)
       VALUES ($1, $2, 'Alice in B', 'alice@example.test', 'agent') RETURNING id`,
      [b, aliceLogin.rows[0].login_id],
    );
    await down();
    const back = await db.query(
      `SELECT id::text AS id, password_hash, removed_at IS NOT NULL AS removed FROM users ORDER BY id`,
    );
    expect(back.rows).toEqual([
      { id: alice, password_hash: 'hash-active', removed: false },
      { id: aliceOld, password_hash: 'hash-active', removed: true },
      { id: bob, password_hash: 'hash-bob', removed: false },
      { id: joined.rows[0].id, password_hash: 'hash-active', removed: true },
    ]);
    // And up again, as a deploy after a rollback would.
    await up();
    expect((await db.query(`SELECT count(*)::int AS n FROM logins`)).rows[0].n).toBe(2);
  });
});
