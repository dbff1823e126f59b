import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

export interface VisitorRecord {
  id: number;
  organization_id: number;
  site_id: number;
  visitor_uid: string;
  name: string | null;
  email: string | null;
  country: string | null;
  language: string | null;
  last_seen_at: Date | null;
}

/**
 * Inserts a visitor row directly (no HTTP route creates visitors yet). Ids come back as numbers,
 * as the API returns them.
 */
export async function createVisitor(
  db: Pool,
  input: {
    organizationId: number;
    siteId: number;
    name?: string | null;
    email?: string | null;
    country?: string | null;
    language?: string | null;
    lastSeenAt?: Date | null;
    visitorUid?: string;
  },
): Promise<VisitorRecord> {
  const { rows } = await db.query<VisitorRecord>(
    `INSERT INTO visitors (organization_id, site_id, visitor_uid, name, email, country, language, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING id::integer AS id, organization_id::integer AS organization_id, site_id::integer AS site_id,
       visitor_uid, name, email, country, language, last_seen_at`,
    [
      input.organizationId,
      input.siteId,
      input.visitorUid ?? randomUUID(),
      input.name ?? null,
      input.email ?? null,
      input.country ?? null,
      input.language ?? null,
      input.lastSeenAt ?? null,
    ],
  );
  return rows[0];
}
