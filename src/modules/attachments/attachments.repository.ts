import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { sql } from '../../database/sql';

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

const COLUMNS = 'id, token, file_name, content_type, size';

@Injectable()
export class AttachmentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    organizationId: string,
    uploader: Uploader,
    file: { token: string; fileName: string; contentType: string; data: Buffer },
  ): Promise<AttachmentRow> {
    const rows = await sql<AttachmentRow>(
      this.dataSource,
      `INSERT INTO attachments
         (organization_id, token, uploader_type, uploader_id, file_name, content_type, size, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        organizationId,
        file.token,
        uploader.type,
        uploader.id,
        file.fileName,
        file.contentType,
        file.data.length,
        file.data,
      ],
    );
    return rows[0];
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
    return sql<AttachmentRow>(
      manager,
      `SELECT ${COLUMNS} FROM attachments
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
      `UPDATE attachments SET message_id = $3 WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
      [organizationId, ids, messageId],
    );
  }

  /** The file behind a download token; the token alone grants it (it is the secret). */
  async byToken(token: string): Promise<StoredFile | undefined> {
    const rows = await sql<StoredFile>(
      this.dataSource,
      `SELECT ${COLUMNS}, data FROM attachments WHERE token = $1`,
      [token],
    );
    return rows[0];
  }
}
