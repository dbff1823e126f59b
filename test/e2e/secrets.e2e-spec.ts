import { createCipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import request from 'supertest';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { runCli } from '../utils/cli';
import { agentOf } from '../utils/data-lookup-client';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import { createOwnerDatabase, type OwnerDatabase, shopSettings } from '../utils/owner-database';
import { startReceiver } from '../utils/webhook-receiver';

/** A value as releases before key ids sealed it: `v1.<iv>.<tag>.<data>` under a raw key. */
function sealV1(raw: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', raw, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'))].join(
    '.',
  );
}

/** Every row of every table of the service's schemas, as text: what a database dump holds. */
async function dump(db: Pool): Promise<string> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'bullmq') AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
    parts.push(name, ...rows.map((row) => row.row));
  }
  return parts.join('\n');
}

/**
 * Secrets stay out of the database (issue 15): the sealing key lives in DATA_DIR or SECRETS_KEY,
 * values sealed under the key a former release kept in `service_secrets` still open after the
 * first start (and that key is gone), a dump of every table holds no secret in plain text and no
 * key, and `secrets:rotate` moves every sealed value to a new key.
 */
describe('secrets', () => {
  let databaseUrl: string;
  let dataDir: string;
  let db: Pool;
  let owner: OwnerDatabase;
  let org: Registered;
  let legacyKey: Buffer;
  let signingSecret: string;
  let webhookId: number;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const plain: string[] = [];

  const start = (env: Record<string, string> = {}) =>
    startApp({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ...env });

  beforeAll(async () => {
    owner = await createOwnerDatabase();
    databaseUrl = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'scs-secrets-'));
    db = pool(databaseUrl);
    receiver = await startReceiver();
    // The migrated database as a former release left it: a sealing key in `service_secrets`.
    const { rows } = await db.query<{ value: string }>(
      `SELECT value FROM service_secrets WHERE name = 'secrets_key'`,
    );
    legacyKey = Buffer.from(rows[0].value, 'hex');
  });

  afterAll(async () => {
    await receiver?.close();
    await db?.end();
    await dropTestDatabase(databaseUrl);
    await owner?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('generates the key into DATA_DIR (mode 0600) and moves values sealed under the database key', async () => {
    let app: AppProcess = await start();
    try {
      org = await registerOrganization(app.url, 'Sealed');
      const hook = await request(app.url)
        .post('/api/agent/webhooks')
        .set(agentOf(org))
        .send({ url: `${receiver.url}/hook`, events: ['ticket.created'] })
        .expect(201);
      signingSecret = hook.body.signing_secret as string;
      webhookId = hook.body.data.id as number;
      await request(app.url)
        .put(`/api/agent/sites/${org.site.id}/data-lookup`)
        .set(agentOf(org))
        .send(shopSettings(owner.readerUrl))
        .expect(200);
      const trusted = await request(app.url)
        .post('/api/agent/visitor-trusted-login/secret')
        .set(agentOf(org))
        .expect(201);
      const apiKey = await createApiKey(app.url, org.token, ['tickets:read']);
      plain.push(
        signingSecret,
        new URL(owner.readerUrl).password,
        owner.readerUrl,
        trusted.body.plain_text_secret as string,
        apiKey.key,
        org.token,
        org.password,
      );
    } finally {
      await app.stop();
    }
    const keyFile = path.join(dataDir, 'secrets.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const { rows: left } = await db.query(`SELECT name FROM service_secrets`);
    expect(left).toEqual([]);

    // Back to the state before this release: values sealed under the database's key, kept there.
    await db.query(`INSERT INTO service_secrets (name, value) VALUES ('secrets_key', $1)`, [
      legacyKey.toString('hex'),
    ]);
    await db.query(`UPDATE webhook_endpoints SET secret_sealed = $1 WHERE id = $2`, [
      sealV1(legacyKey, signingSecret),
      webhookId,
    ]);
    await db.query(`UPDATE data_lookup_settings SET url_sealed = $1 WHERE site_id = $2`, [
      sealV1(legacyKey, owner.readerUrl),
      org.site.id,
    ]);

    app = await start();
    try {
      const { rows: sealed } = await db.query<{ value: string }>(
        `SELECT secret_sealed AS value FROM webhook_endpoints
         UNION ALL SELECT url_sealed FROM data_lookup_settings`,
      );
      for (const { value } of sealed) expect(value).toMatch(/^v2\./);
      expect((await db.query(`SELECT name FROM service_secrets`)).rows).toEqual([]);
      // Both still open: the owner database is read, the webhook signed with its secret.
      await request(app.url)
        .post(`/api/agent/sites/${org.site.id}/data-lookup/test`)
        .set(agentOf(org))
        .expect(200);
      await request(app.url)
        .post('/api/agent/tickets')
        .set(agentOf(org))
        .send({ subject: 'Sealed', description: 'signed with the moved secret' })
        .expect(201);
      const delivery = await eventually(async () => receiver.received[0]);
      expect(delivery.headers['x-service-signature']).toBe(
        createHmac('sha256', signingSecret).update(delivery.raw).digest('hex'),
      );
    } finally {
      await app.stop();
    }
  });

  it('leaves no plaintext secret and no key in a dump of the database', async () => {
    const everything = await dump(db);
    expect(everything).toContain('webhook_endpoints');
    const masterKey = readFileSync(path.join(dataDir, 'secrets.key'), 'utf8').trim();
    for (const secret of [
      ...plain,
      masterKey,
      Buffer.from(masterKey, 'hex').toString('base64'),
      legacyKey.toString('hex'),
    ]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('re-seals everything under a new key with secrets:rotate', async () => {
    const oldKey = readFileSync(path.join(dataDir, 'secrets.key'), 'utf8').trim();
    const newKey = randomBytes(32).toString('hex');
    const rotate = runCli(['secrets:rotate'], {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      SECRETS_KEY: newKey,
      SECRETS_KEY_PREVIOUS: oldKey,
    });
    expect(rotate.stderr).toBe('');
    expect(rotate.stdout).toContain('re-sealed 2 stored secret(s)');
    expect(rotate.status).toBe(0);

    // Only the new key from now on: everything still opens.
    const app = await start({ SECRETS_KEY: newKey });
    try {
      const read = await request(app.url)
        .get(`/api/agent/sites/${org.site.id}/data-lookup`)
        .set(agentOf(org))
        .expect(200);
      expect(read.body.data.connection.url).toContain(':****@');
      await request(app.url)
        .post(`/api/agent/sites/${org.site.id}/data-lookup/test`)
        .set(agentOf(org))
        .expect(200);
    } finally {
      await app.stop();
    }
    // Every sealed value names the new key now.
    const newId = Buffer.from(
      hkdfSync('sha256', Buffer.from(newKey, 'hex'), Buffer.alloc(0), 'support-chat key id', 6),
    ).toString('base64url');
    const { rows } = await db.query<{ value: string }>(
      `SELECT secret_sealed AS value FROM webhook_endpoints
       UNION ALL SELECT url_sealed FROM data_lookup_settings`,
    );
    expect(rows.map((row) => row.value.split('.').slice(0, 2).join('.'))).toEqual([
      `v2.${newId}`,
      `v2.${newId}`,
    ]);
  });
});
