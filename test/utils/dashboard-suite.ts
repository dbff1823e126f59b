import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, freePort, startApp } from './app-process';
import { launchBrowser, type TestBrowser } from './browser';
import { createTestDatabase, dropTestDatabase } from './database';

type AppEnv = Record<string, string | undefined>;

/** What a dashboard browser suite runs against: its app, database, browser and owner. */
export interface DashboardSuite {
  app: AppProcess;
  databaseUrl: string;
  /** The app's PUBLIC_URL (`http://127.0.0.1:<port>`): the browser talks to it directly. */
  service: string;
  browser: TestBrowser;
  /** The organization's owner (absent with `organization: false`). */
  owner: Registered;
  /** Gives the browser (its whole context) the session cookie of `who` (the owner by default). */
  logIn(who?: { email: string; password: string }): Promise<void>;
  /** Closes the browser, stops the app and drops the database, whatever fails on the way. */
  stop(): Promise<void>;
}

/**
 * The start-up every dashboard browser suite shares: a fresh database, the compiled app on a free
 * port at its own PUBLIC_URL (the browser talks to it directly: the validating proxy carries no
 * WebSocket, and cookie requests must come from that origin), a browser (1440 × 900 unless
 * `viewport` says otherwise), an organization with its owner registered (`organization`, its
 * name; `false` for none) and, with `loggedIn`, the owner's session in the browser. `env` adds
 * the suite's own settings (a function of the service's URL where they depend on it). Pair it
 * with `afterAll(() => suite?.stop())`.
 */
export async function startDashboardSuite(
  options: {
    env?: AppEnv | ((service: string) => AppEnv | Promise<AppEnv>);
    organization?: string | false;
    loggedIn?: boolean;
    viewport?: { width: number; height: number } | null;
  } = {},
): Promise<DashboardSuite> {
  const databaseUrl = await createTestDatabase();
  let app: AppProcess | undefined;
  let browser: TestBrowser | undefined;
  const stop = async () => {
    try {
      await browser?.close();
      await app?.stop();
    } finally {
      await dropTestDatabase(databaseUrl);
    }
  };
  try {
    const port = await freePort();
    const service = `http://127.0.0.1:${port}`;
    const extra = typeof options.env === 'function' ? await options.env(service) : options.env;
    app = await startApp({
      ...extra,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: service,
    });
    const started = app;
    const owner =
      options.organization === false
        ? (undefined as unknown as Registered)
        : await registerOrganization(started.url, options.organization ?? 'Acme');
    browser = await launchBrowser(
      options.viewport === null
        ? {}
        : { viewport: options.viewport ?? { width: 1440, height: 900 } },
    );
    const opened = browser;
    const logIn = async (who?: { email: string; password: string }) => {
      const { email, password } = who ?? { email: owner.user.email, password: owner.password };
      const login = await opened.context.request.post(`${service}/api/agent/auth/login`, {
        data: { email, password },
      });
      if (login.status() !== 200)
        throw new Error(`logging ${email} in answered ${login.status()}: ${await login.text()}`);
    };
    if (options.loggedIn) await logIn();
    return { app: started, databaseUrl, service, browser: opened, owner, logIn, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
