import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { adminUrl, databaseUrl, TEMPLATE_DATABASE } from './test-env';

/** A fresh database cloned from the migrated template; each test file gets its own. */
export async function createTestDatabase(): Promise<string> {
  const name = `scs_test_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await client.end();
  }
  return databaseUrl(name);
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export function pool(url: string): Pool {
  return new Pool({ connectionString: url, max: 4 });
}
