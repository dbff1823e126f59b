import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const TEMPLATE_DATABASE = 'scs_template';

/** Set by the global setup: a superuser URL of the test PostgreSQL server's maintenance database. */
export function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url)
    throw new Error('TEST_PG_ADMIN_URL is not set: run the e2e tests through jest (npm test)');
  return url;
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
