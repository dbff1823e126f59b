import request from 'supertest';
import { createApiKey, registerOrganization } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { redisAvailable, type RedisServer, startRedis } from '../utils/redis';

const modes = [{ name: 'PostgreSQL counters', redis: false }];
if (redisAvailable()) modes.push({ name: 'Redis counters', redis: true });

describe.each(modes)(
  'public API rate limit per key across routes and instances ($name)',
  ({ redis: useRedis }) => {
    let databaseUrl: string;
    let redis: RedisServer | undefined;
    let apps: AppProcess[] = [];

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      if (useRedis) redis = await startRedis();
      const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis?.url, RATE_LIMIT_PER_MINUTE: '5' };
      apps = await Promise.all([startApp(env), startApp(env), startApp(env)]);
    });

    afterAll(async () => {
      await Promise.all(apps.map((app) => app.stop()));
      await redis?.stop();
      await dropTestDatabase(databaseUrl);
    });

    it('counts every route on both instances against one budget, with headers, then 429 with Retry-After', async () => {
      const org = await registerOrganization(apps[0].url);
      const { key } = await createApiKey(apps[0].url, org.token, ['agents:read']);
      const paths = [
        '/api/v1/me',
        '/api/v1/agents',
        '/api/v1/sites',
        '/api/v1/me',
        '/api/v1/agents',
      ];
      const remaining: string[] = [];
      for (const [i, path] of paths.entries()) {
        const res = await request(apps[i % 2].url)
          .get(path)
          .set('X-Service-Key', key);
        // sites:read is missing: refused with 403, and still counted.
        expect(res.status).toBe(path === '/api/v1/sites' ? 403 : 200);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
        remaining.push(res.headers['x-ratelimit-remaining']);
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);

      const limited = await request(apps[1].url)
        .get('/api/v1/me')
        .set('X-Service-Key', key)
        .expect(429);
      expect(limited.body).toMatchObject({
        status: false,
        code: '429',
        message: 'Too Many Attempts.',
        error_code: 'rate_limited',
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['x-ratelimit-remaining']).toBe('0');
      expect(limited.headers['x-ratelimit-limit']).toBe('5');

      // Another key of the same organization has its own budget; the agent API is not limited.
      const { key: other } = await createApiKey(apps[0].url, org.token, ['agents:read']);
      await request(apps[0].url).get('/api/v1/me').set('X-Service-Key', other).expect(200);
      const agent = await request(apps[0].url)
        .get('/api/agent/me')
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);
      expect(agent.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('lets exactly the budget through when a burst arrives at once on both instances', async () => {
      const org = await registerOrganization(apps[1].url);
      const { key } = await createApiKey(apps[1].url, org.token, ['agents:read']);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(apps[i % 2].url)
            .get('/api/v1/me')
            .set('X-Service-Key', key),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array<number>(5).fill(200), ...Array<number>(15).fill(429)]);
    });

    it('refuses a key revoked on one instance on every other within a second', async () => {
      const org = await registerOrganization(apps[0].url);
      const { id, key } = await createApiKey(apps[0].url, org.token, ['agents:read']);
      // Every instance has the key in memory.
      for (const app of apps) {
        await request(app.url).get('/api/v1/me').set('X-Service-Key', key).expect(200);
      }
      await request(apps[0].url)
        .delete(`/api/agent/api-keys/${id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);
      const revokedAt = Date.now();
      // Each of the other instances is asked again and again until a request sent 1 s or more
      // after the revocation has its answer: whatever came before, that one is refused.
      const answers = await Promise.all(
        apps.slice(1).map(async (app) => {
          const seen: { sentAfter: number; status: number }[] = [];
          for (;;) {
            const sentAfter = Date.now() - revokedAt;
            const res = await request(app.url).get('/api/v1/me').set('X-Service-Key', key);
            seen.push({ sentAfter, status: res.status });
            if (sentAfter >= 1_000) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return seen;
        }),
      );
      for (const seen of answers) {
        expect(seen.every(({ status }) => status === 200 || status === 401)).toBe(true);
        expect(seen.at(-1)!.status).toBe(401);
      }
    });

    it('does not count requests with an invalid key', async () => {
      const res = await request(apps[0].url)
        .get('/api/v1/me')
        .set('X-Service-Key', 'scs_live_nope')
        .expect(401);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    });
  },
);

describe.each(modes)(
  'the per-key budget taken ahead by three instances ($name)',
  ({ redis: useRedis }) => {
    let databaseUrl: string;
    let redis: RedisServer | undefined;
    let apps: AppProcess[] = [];

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      if (useRedis) redis = await startRedis();
      const env = {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis?.url,
        RATE_LIMIT_PER_MINUTE: '120',
      };
      apps = await Promise.all([startApp(env), startApp(env), startApp(env)]);
    });

    afterAll(async () => {
      await Promise.all(apps.map((app) => app.stop()));
      await redis?.stop();
      await dropTestDatabase(databaseUrl);
    });

    const call = (app: AppProcess, key: string) =>
      request(app.url).get('/api/v1/me').set('X-Service-Key', key);

    it('lets exactly 120 of 180 requests through, round robin, with the remaining count', async () => {
      const org = await registerOrganization(apps[0].url);
      const { key } = await createApiKey(apps[0].url, org.token, ['agents:read']);
      const statuses: number[] = [];
      const remaining: number[] = [];
      for (let i = 0; i < 180; i += 1) {
        const res = await call(apps[i % 3], key);
        statuses.push(res.status);
        if (res.status === 200) remaining.push(Number(res.headers['x-ratelimit-remaining']));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(120);
      expect(statuses.filter((s) => s === 429)).toHaveLength(60);
      // Each request's place in the window's count (budget given back can be handed out again,
      // so two requests may share one), down to none left.
      expect(remaining.every((n) => n >= 0 && n < 120)).toBe(true);
      expect(new Set(remaining).size).toBeGreaterThan(100);
      expect(Math.min(...remaining)).toBe(0);
    });

    it('never lets more through with uneven traffic and bursts, and leaves none unused', async () => {
      const org = await registerOrganization(apps[1].url);
      const { key } = await createApiKey(apps[1].url, org.token, ['agents:read']);
      let allowed = 0;
      // Bursts at once: most on the first instance, a few on the second, none on the third.
      for (let round = 0; round < 25; round += 1) {
        const burst = await Promise.all([
          ...Array.from({ length: 6 }, () => call(apps[0], key)),
          call(apps[1], key),
        ]);
        allowed += burst.filter((res) => res.status === 200).length;
        expect(burst.every((res) => res.status === 200 || res.status === 429)).toBe(true);
      }
      expect(allowed).toBeLessThanOrEqual(120);
      // Budget the first two took ahead and did not use is given back within a second; the
      // third instance, idle until now, gets exactly what is left of the 120.
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      for (;;) {
        const res = await call(apps[2], key);
        if (res.status === 429) break;
        expect(res.status).toBe(200);
        allowed += 1;
      }
      expect(allowed).toBe(120);
    });
  },
);
