import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '../../database/sql';

/** Who uploaded an attachment: only they may attach it to a message. */
export interface Uploader {
  type: 'visitor' | 'agent' | 'api_key';
  id: string;
}

export interface AttachmentRow {
  id: string;
  token: string;
  file_name: string;
  content_type: string;
  size: number;
}

export interface StoredFile extends AttachmentRow {
  data: Buffer;
}

@Injectable()
export class AttachmentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    organizationId: string,
    uploader: Uploader,
    file: {
      token: string;
      fileName: string;
      contentType: string;
      data: Buffer;
      clientAddress: string | null;
    },
  ): Promise<AttachmentRow> {
    const rows = await sql(
      manager,
      query<AttachmentRow>`INSERT INTO attachments (organization_id, token, uploader_type, uploader_id, file_name,
         content_type, size, data, client_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, token, file_name, content_type, size`,
      [
        organizationId,
        file.token,
        uploader.type,
        uploader.id,
        file.fileName,
        file.contentType,
        file.data.length,
        file.data,
        file.clientAddress,
      ],
    );
    return rows[0];
  }

  /**
   * Serializes the organization's uploads for the transaction (so its quotas hold exactly) and
   * answers the bytes it stores.
   */
  async lockStoredBytes(manager: EntityManager, organizationId: string): Promise<number> {
    await sql(
      manager,
      query<{
        pg_advisory_xact_lock: void | null;
      }>`SELECT pg_advisory_xact_lock(7011, hashint8($1::bigint))`,
      [organizationId],
    );
    const rows = await sql(
      manager,
      query<{
        bytes: string | null;
      }>`SELECT sum(size) AS bytes FROM attachments WHERE organization_id = $1`,
      [organizationId],
    );
    return Number(rows[0].bytes ?? 0);
  }

  /** A visitor's unsent uploads, and the bytes it and its client address uploaded this hour. */
  async visitorUsage(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
    clientAddress: string,
  ): Promise<{ unsent: number; visitorBytes: number; addressBytes: number }> {
    const rows = await sql(
      manager,
      query<{ unsent: number; visitor_bytes: string; address_bytes: string }>`SELECT
         COALESCE((SELECT count(*)::int FROM attachments WHERE organization_id = $1
            AND uploader_type = 'visitor' AND uploader_id = $2 AND message_id IS NULL), 0) AS unsent,
         COALESCE((SELECT coalesce(sum(size), 0) FROM attachments WHERE organization_id = $1
            AND uploader_type = 'visitor' AND uploader_id = $2
            AND created_at > now() - interval '1 hour'), 0) AS visitor_bytes,
         COALESCE((SELECT coalesce(sum(size), 0) FROM attachments WHERE organization_id = $1
            AND client_address = $3 AND created_at > now() - interval '1 hour'), 0) AS address_bytes`,
      [organizationId, visitorId, clientAddress],
    );
    return {
      unsent: rows[0].unsent,
      visitorBytes: Number(rows[0].visitor_bytes),
      addressBytes: Number(rows[0].address_bytes),
    };
  }

  /**
   * The named attachments that `uploader` may still attach (not yet on a message), locked for the
   * transaction that sends them.
   */
  unsent(
    manager: EntityManager,
    organizationId: string,
    uploader: Uploader,
    ids: string[],
  ): Promise<AttachmentRow[]> {
    return sql(
      manager,
      query<AttachmentRow>`SELECT id, token, file_name, content_type, size FROM attachments
       WHERE organization_id = $1 AND id = ANY($2::bigint[]) AND message_id IS NULL
         AND uploader_type = $3 AND uploader_id = $4
       ORDER BY id FOR UPDATE`,
      [organizationId, ids, uploader.type, uploader.id],
    );
  }

  async attach(
    manager: EntityManager,
    organizationId: string,
    ids: string[],
    messageId: string,
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE attachments SET message_id = $3 WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
      [organizationId, ids, messageId],
    );
  }

  /** The file behind a download token; the token alone grants it (it is the secret). */
  async byToken(token: string): Promise<StoredFile | undefined> {
    const rows = await sql(
      this.dataSource,
      query<StoredFile>`SELECT id, token, file_name, content_type, size, data FROM attachments WHERE token = $1`,
      [token],
    );
    return rows[0];
  }
}
