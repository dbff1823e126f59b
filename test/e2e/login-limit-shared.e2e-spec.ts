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
      const env = {
        DATABASE_URL: databaseUrl,
        REDIS_URL: redis?.url,
        TRUST_PROXY: 'loopback',
        LOGIN_FREE_FAILURES: '3',
        LOGIN_FREE_FAILURES_PER_CLIENT: '10',
      };
      apps = await Promise.all([startApp(env), startApp(env)]);
    });

    afterAll(async () => {
      await Promise.all(apps.map((app) => app.stop()));
      await redis?.stop();
      await dropTestDatabase(databaseUrl);
    });

    const login = (app: AppProcess, address: string, email: string, password: string) =>
      request(app.url)
        .post('/api/agent/auth/login')
        .set('X-Forwarded-For', address)
        .send({ email, password });

    it('counts failures, not attempts, across instances: a failing client waits, a clean one logs in', async () => {
      const org = await registerOrganization(apps[0].url);
      // Logging in successfully costs nothing, however often.
      for (let i = 0; i < 8; i += 1) {
        await login(apps[i % 2], '203.0.113.1', org.user.email, org.password).expect(200);
      }
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await login(apps[i % 2], '203.0.113.2', org.user.email, 'wrong')).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      await login(apps[0], '203.0.113.2', org.user.email, org.password).expect(429);
      // While the address is hammered from there, the owner's own client address still gets in.
      await login(apps[1], '203.0.113.3', org.user.email, org.password).expect(200);
      // Once that client fails too, the address's failures make it wait.
      await login(apps[0], '203.0.113.3', org.user.email, 'wrong').expect(401);
      const waiting = await login(apps[1], '203.0.113.3', org.user.email, org.password).expect(429);
      expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('makes the wait grow with each failure instead of locking the account', async () => {
      const org = await registerOrganization(apps[0].url);
      const address = '203.0.113.4';
      for (let i = 0; i < 3; i += 1) {
        await login(apps[i % 2], address, org.user.email, 'wrong').expect(401);
      }
      const first = await login(apps[0], address, org.user.email, 'wrong').expect(429);
      const firstWait = Number(first.headers['retry-after']);
      expect(firstWait).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, firstWait * 1000 + 100));
      await login(apps[1], address, org.user.email, 'wrong').expect(401);
      const second = await login(apps[0], address, org.user.email, 'wrong').expect(429);
      const secondWait = Number(second.headers['retry-after']);
      expect(secondWait).toBe(4);
      await new Promise((resolve) => setTimeout(resolve, secondWait * 1000 + 100));
      // Not locked: after the wait, the right password logs in.
      await login(apps[1], address, org.user.email, org.password).expect(200);
    });

    it('makes a client address spraying many addresses wait', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) {
        const res = await login(apps[i % 2], '203.0.113.9', `nobody-${i}@example.test`, 'x1');
        statuses.push(res.status);
      }
      // Each address failed once; the client address ten times (an office's allowance).
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    });
  },
);
