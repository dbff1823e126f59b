import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
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
 * JSON of visitor, site, organization and issue time, signed with HMAC-SHA256 under a key every
 * instance derives from the master key (HKDF; tokens signed under a previous key still verify
 * while it is in SECRETS_KEY_PREVIOUS). Verifying needs no database round trip, which matters
 * for Socket.IO handshakes and every widget call.
 */
@Injectable()
export class WidgetSessionService {
  constructor(private readonly secrets: SecretBoxService) {}

  issue(session: WidgetSession, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({
        v: session.visitorId,
        s: session.siteId,
        o: session.organizationId,
        t: Math.floor(now / 1000),
      }),
    ).toString('base64url');
    const [key] = this.secrets.widgetSessionKeys();
    return `${PREFIX}${payload}.${sign(key, payload).toString('base64url')}`;
  }

  /** The session and when it lapses, or undefined for anything forged, malformed or expired. */
  verify(token: string, now = Date.now()): (WidgetSession & { expiresAt: Date }) | undefined {
    if (!token.startsWith(PREFIX)) return undefined;
    const [payload, signature, extra] = token.slice(PREFIX.length).split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    const given = Buffer.from(signature, 'base64url');
    const keys = this.secrets.widgetSessionKeys();
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
}

const sign = (key: Buffer, payload: string): Buffer =>
  createHmac('sha256', key).update(payload).digest();
