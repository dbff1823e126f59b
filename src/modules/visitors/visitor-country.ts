import type { IncomingHttpHeaders } from 'node:http';

/** Codes proxies send when they know no country: unknown (XX) and Tor (T1, not two letters). */
const UNKNOWN = new Set(['XX', 'ZZ']);

/**
 * The visitor's country from the proxy's header `header` (COUNTRY_HEADER): an ISO 3166-1
 * alpha-2 code, upper-cased, or undefined when the header is not configured, absent, repeated
 * or not a country (Cloudflare's `XX` and `T1` included).
 */
export function countryFrom(
  headers: IncomingHttpHeaders,
  header: string | undefined,
): string | undefined {
  if (header === undefined) return undefined;
  const value = headers[header];
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && !UNKNOWN.has(code) ? code : undefined;
}
