import { createHmac } from 'node:crypto';
import { sameBytes } from '../../common/crypto/secrets';

/** Who a widget session token speaks for. */
export interface WidgetSession {
  visitorId: string;
  siteId: string;
  organizationId: string;
}

const PREFIX = 'wst_';
/** The widget calls `init` on every page load and gets a fresh token; an old one lapses. */
const LIFETIME_SECONDS = 30 * 24 * 3600;

/**
 * Widget session tokens (DESIGN section 7): `wst_<payload>.<signature>`, the payload base64url
 * JSON of visitor, site, organization and issue time, signed with HMAC-SHA256 under `key`.
 */
export function issueWidgetSession(key: Buffer, session: WidgetSession, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({
      v: session.visitorId,
      s: session.siteId,
      o: session.organizationId,
      t: Math.floor(now / 1000),
    }),
  ).toString('base64url');
  return `${PREFIX}${payload}.${sign(key, payload).toString('base64url')}`;
}

/**
 * The session a token signed under one of `keys` speaks for, and when it lapses; undefined for
 * anything forged, malformed or expired.
 */
export function verifyWidgetSession(
  keys: Buffer[],
  token: string,
  now = Date.now(),
): (WidgetSession & { expiresAt: Date }) | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const [payload, signature, extra] = token.slice(PREFIX.length).split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const given = Buffer.from(signature, 'base64url');
  // Node decodes leniently: another spelling of the same bytes (the last character's unused
  // bits, characters outside the alphabet) would pass. One token, one spelling.
  if (given.toString('base64url') !== signature) return undefined;
  if (!keys.some((key) => sameBytes(given, sign(key, payload)))) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const { v, s, o, t } = claims;
    if (typeof v !== 'string' || typeof s !== 'string' || typeof o !== 'string') return undefined;
    if (typeof t !== 'number' || now / 1000 - t > LIFETIME_SECONDS) return undefined;
    return {
      visitorId: v,
      siteId: s,
      organizationId: o,
      expiresAt: new Date((t + LIFETIME_SECONDS) * 1000),
    };
  } catch {
    return undefined;
  }
}

const sign = (key: Buffer, payload: string): Buffer =>
  createHmac('sha256', key).update(payload).digest();
