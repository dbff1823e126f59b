import { createHmac } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sameBytes } from '../../common/crypto/secrets';
import { sql } from '../../database/sql';

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
 * JSON of visitor, site, organization and issue time, signed with HMAC-SHA256 under a secret
 * every instance reads from `service_secrets` (made by a migration). Verifying needs no database
 * round trip, which matters for Socket.IO handshakes and every widget call.
 */
@Injectable()
export class WidgetSessionService implements OnModuleInit {
  private secret?: Buffer;

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const rows = await sql<{ value: string }>(
      this.dataSource,
      `SELECT value FROM service_secrets WHERE name = 'widget_session'`,
      [],
    );
    if (!rows[0]) throw new Error('service_secrets has no widget_session secret: run migrations');
    this.secret = Buffer.from(rows[0].value, 'utf8');
  }

  issue(session: WidgetSession, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({
        v: session.visitorId,
        s: session.siteId,
        o: session.organizationId,
        t: Math.floor(now / 1000),
      }),
    ).toString('base64url');
    return `${PREFIX}${payload}.${this.sign(payload).toString('base64url')}`;
  }

  /** The session and when it lapses, or undefined for anything forged, malformed or expired. */
  verify(token: string, now = Date.now()): (WidgetSession & { expiresAt: Date }) | undefined {
    if (!token.startsWith(PREFIX)) return undefined;
    const [payload, signature, extra] = token.slice(PREFIX.length).split('.');
    if (!payload || !signature || extra !== undefined) return undefined;
    if (!sameBytes(Buffer.from(signature, 'base64url'), this.sign(payload))) return undefined;
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

  private sign(payload: string): Buffer {
    if (!this.secret) throw new Error('WidgetSessionService used before initialisation');
    return createHmac('sha256', this.secret).update(payload).digest();
  }
}
