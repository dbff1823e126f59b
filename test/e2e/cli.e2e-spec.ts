import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startApp } from '../utils/app-process';
import { runCli } from '../utils/cli';
import { ABILITIES } from '../../src/common/auth/auth.types';

function cli(dataDir: string, ...args: string[]) {
  return runCli(args, { DATA_DIR: dataDir, PASSWORD_SCRYPT_N: '1024' });
}

describe('platform CLI against the embedded database', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'scs-cli-'));
    chmodSync(dataDir, 0o755);
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('org:create prints an owner login and an all-abilities key; org:plan and org:subscription change them', async () => {
    const created = cli(
      dataDir,
      'org:create',
      '--name',
      'Initech',
      '--email',
      'bill@initech.test',
      '--json',
    );
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const result = JSON.parse(created.stdout) as {
      organization: { id: number; plan: string };
      owner: { email: string; password: string };
      api_key: string;
    };
    expect(result.organization.plan).toBe('business');
    expect(result.api_key).toMatch(/^scs_live_[0-9A-Za-z]{40}$/);

    // With the app running on the same data directory, the CLI uses the app's server. The
    // owner's address is listed, but the operator's org:create made that login, not its person.
    const app = await startApp({ DATA_DIR: dataDir, PLATFORM_ADMIN_EMAILS: result.owner.email });
    try {
      const login = await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: result.owner.email, password: result.owner.password })
        .expect(200);
      expect(login.body.user.role).toBe('owner');
      const platformAdmin = async () =>
        (
          await request(app.url)
            .get('/api/agent/me')
            .set('Authorization', `Bearer ${login.body.token}`)
            .expect(200)
        ).body.platform_admin as boolean;
      expect(await platformAdmin()).toBe(false);
      // An administrator is a login that exists: no grant waits for an address.
      const nobody = cli(dataDir, 'admin:grant', 'nobody@initech.test');
      expect(nobody.status).toBe(1);
      expect(nobody.stderr).toContain('no login has the address nobody@initech.test');
      const granted = cli(dataDir, 'admin:grant', result.owner.email);
      expect(granted.status).toBe(0);
      expect(granted.stdout).toMatch(
        /^bill@initech\.test \(login \d+\) is now a platform administrator$/m,
      );
      expect(await platformAdmin()).toBe(true);
      const me = await request(app.url)
        .get('/api/v1/me')
        .set('Authorization', `Bearer ${result.api_key}`)
        .expect(200);
      expect([...me.body.api_key.abilities].sort()).toEqual([...ABILITIES].sort());

      const plan = cli(dataDir, 'org:plan', String(result.organization.id), 'free');
      expect(plan.status).toBe(0);
      expect(plan.stdout).toContain('free plan');
      const after = await request(app.url)
        .get('/api/v1/me')
        .set('X-Service-Key', result.api_key)
        .expect(200);
      expect(after.body.organization.plan).toBe('free');

      const sub = cli(dataDir, 'org:subscription', String(result.organization.id), '2026-01-31');
      expect(sub.status).toBe(0);
      const agentMe = await request(app.url)
        .get('/api/agent/me')
        .set('Authorization', `Bearer ${login.body.token}`)
        .expect(200);
      expect(agentMe.body.organization.subscription_ends_at).toBe('2026-01-31T00:00:00.000Z');
      expect(cli(dataDir, 'org:subscription', String(result.organization.id), 'none').status).toBe(
        0,
      );
      const cleared = await request(app.url)
        .get('/api/agent/me')
        .set('Authorization', `Bearer ${login.body.token}`)
        .expect(200);
      expect(cleared.body.organization.subscription_ends_at).toBeNull();
    } finally {
      await app.stop();
    }
    // Six CLI runs, each starting Node and the embedded PostgreSQL, and an app: about a minute on
    // a busy CI machine, so more than the default minute.
  }, 180_000);

  it('refuses bad arguments with a usage message', () => {
    const badPlan = cli(dataDir, 'org:plan', '1', 'platinum');
    expect(badPlan.status).toBe(2);
    expect(badPlan.stderr).toContain('plan must be one of: free, pro, business');
    const badDate = cli(dataDir, 'org:subscription', '1', 'someday');
    expect(badDate.status).toBe(2);
    const missing = cli(dataDir, 'org:plan', '999999', 'pro');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('organization not found');
  });
});
