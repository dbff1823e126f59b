import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql } from '../../database/sql';

/**
 * Housekeeping across organizations: uploads that were never attached to a message. It reads and
 * returns nothing of any tenant; only the attachments service may use it (tenant-scoping.spec.ts).
 */
@Injectable()
export class AttachmentsMaintenanceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Forgets uploads nobody sent within `hours` (an abandoned upload is not kept forever). */
  async purgeUnsent(hours: number): Promise<void> {
    await sql(
      this.dataSource,
      query`DELETE FROM attachments
       WHERE message_id IS NULL AND created_at < now() - make_interval(hours => $1)`,
      [hours],
    );
  }
}
