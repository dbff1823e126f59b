import { spawn } from 'node:child_process';
import path from 'node:path';

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface OidcProvider {
  issuer: string;
  /** How often its discovery document was read so far. */
  discoveries(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts a real OpenID Connect provider (`oidc-provider`, see `oidc-provider-server.mjs`) in a child
 * process on a free 127.0.0.1 port, with the given clients registered.
 */
export async function startOidcProvider(clients: OidcClient[]): Promise<OidcProvider> {
  const child = spawn(process.execPath, [path.join(__dirname, 'oidc-provider-server.mjs')], {
    env: { PATH: process.env.PATH, OIDC_CLIENTS: JSON.stringify(clients) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`provider did not start\n${stderr}`)), 15_000);
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const line = buffer.split('\n')[0];
      if (buffer.includes('\n')) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { issuer: string }).issuer);
      }
    });
    void exited.then(() => reject(new Error(`provider exited\n${stderr}`)));
  });
  return {
    issuer,
    async discoveries() {
      const response = await fetch(`${issuer}/test/discoveries`);
      return ((await response.json()) as { discoveries: number }).discoveries;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A minimal cookie jar for driving the provider's pages by hand. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(headers: Headers): void {
    for (const cookie of headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const index = pair.indexOf('=');
      this.cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1));
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * Signs `email` in at the provider, starting from its authorization URL: follows the redirects
 * by hand with a cookie jar, submits the development login and consent forms, and answers the
 * URL the provider finally redirects to (the app's callback, not followed).
 */
export async function signInAtProvider(authorizationUrl: string, email: string): Promise<URL> {
  const jar = new CookieJar();
  const origin = new URL(authorizationUrl).origin;
  let next = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (next.origin !== origin) return next;
    const response = await fetch(next, {
      method: body ? 'POST' : 'GET',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
      redirect: 'manual',
    });
    jar.store(response.headers);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      next = new URL(location, next);
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${html}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    body = new URLSearchParams(
      prompt === 'login' ? { prompt, login: email, password: 'any' } : { prompt: prompt ?? '' },
    );
    next = new URL(action.replace(/&amp;/g, '&'), next);
  }
  throw new Error('too many steps at the provider');
}
