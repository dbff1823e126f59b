import request from 'supertest';
import { registerOrganization } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { redisAvailable, type RedisServer, startRedis } from '../utils/redis';

const modes = [{ name: 'PostgreSQL counters', redis: false }];
if (redisAvailable()) modes.push({ name: 'Redis counters', redis: true });

describe.each(modes)(
  'login attempts are counted across instances ($name)',
  ({ redis: useRedis }) => {
    let databaseUrl: string;
    let redis: RedisServer | undefined;
    let apps: AppProcess[] = [];

    beforeAll(async () => {
      databaseUrl = await createTestDatabase();
      if (useRedis) redis = await startRedis();
      // The tests name their client address in X-Forwarded-For; the proxy in front is loopback.
      const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis?.url, TRUST_PROXY: 'loopback' };
      apps = await Promise.all([startApp(env), startApp(env)]);
    });

    afterAll(async () => {
      await Promise.all(apps.map((app) => app.stop()));
      await redis?.stop();
      await dropTestDatabase(databaseUrl);
    });

    it('refuses the sixth attempt for one email even when the attempts go to two instances', async () => {
      const org = await registerOrganization(apps[0].url);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await request(apps[i % 2].url)
          .post('/api/agent/auth/login')
          .send({ email: org.user.email, password: 'wrong password' });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    });

    it('limits attempts per client address across many emails', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i += 1) {
        const res = await request(apps[i % 2].url)
          .post('/api/agent/auth/login')
          .set('X-Forwarded-For', '203.0.113.9')
          .send({ email: `nobody-${i}@example.test`, password: 'whatever1' });
        statuses.push(res.status);
      }
      // 20 per minute per client address (from X-Forwarded-For: the request comes through a
      // trusted loopback proxy), while each email alone stays under its own limit.
      expect(statuses).toEqual([...Array<number>(20).fill(401), 429, 429]);
    });
  },
);
