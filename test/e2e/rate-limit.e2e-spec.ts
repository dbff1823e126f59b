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
      apps = await Promise.all([startApp(env), startApp(env)]);
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

    it('does not count requests with an invalid key', async () => {
      const res = await request(apps[0].url)
        .get('/api/v1/me')
        .set('X-Service-Key', 'scs_live_nope')
        .expect(401);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    });
  },
);
