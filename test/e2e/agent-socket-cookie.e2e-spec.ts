import { io } from 'socket.io-client';
import request from 'supertest';
import { registerOrganization } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const PUBLIC_URL = 'https://chat.example.test';

/** The dashboard's `/agent` socket on the HttpOnly session cookie, from its own origin only. */
describe('agent socket on the session cookie', () => {
  let suite: TestApp;
  let app: AppProcess;
  let direct: string;
  let cookie: string;

  beforeAll(async () => {
    ({ app, direct } = suite = await startTestApp({ PUBLIC_URL }));
    const org = await registerOrganization(app.url);
    const login = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: org.user.email, password: org.password })
      .expect(200);
    const setCookie = login.headers['set-cookie'] as unknown as string[];
    cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
  });

  afterAll(() => suite?.stop());

  const handshake = (headers: Record<string, string>) =>
    new Promise<string>((resolve) => {
      const socket = io(`${direct}/agent`, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        extraHeaders: headers,
      });
      socket.on('connect', () => {
        socket.close();
        resolve('connected');
      });
      socket.on('connect_error', (error) => {
        socket.close();
        resolve(error.message);
      });
    });

  it('opens for the cookie from the dashboard origin', async () => {
    await expect(handshake({ cookie, origin: PUBLIC_URL })).resolves.toBe('connected');
  });

  it('refuses the cookie from another origin or without one', async () => {
    await expect(handshake({ cookie, origin: 'https://evil.example' })).resolves.toBe(
      'Unauthenticated.',
    );
    await expect(handshake({ cookie })).resolves.toBe('Unauthenticated.');
    await expect(handshake({ origin: PUBLIC_URL })).resolves.toBe('Unauthenticated.');
  });
});
