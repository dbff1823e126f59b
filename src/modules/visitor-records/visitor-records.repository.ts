import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql } from '../../database/sql';

/** The visitor messages the keyword bot answered (one reply per message, however often it runs). */
@Injectable()
export class VisitorRecordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims a visitor message for a keyword reply; false when it was answered already. */
  async claimReply(organizationId: string, messageId: string, ruleId: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        message_id: string;
      }>`INSERT INTO data_lookup_replies (message_id, organization_id, rule_id) VALUES ($1, $2, $3)
       ON CONFLICT (message_id) DO NOTHING RETURNING message_id`,
      [messageId, organizationId, ruleId],
    );
    return rows.length > 0;
  }

  async releaseReply(organizationId: string, messageId: string): Promise<void> {
    await sql(
      this.dataSource,
      query`DELETE FROM data_lookup_replies WHERE organization_id = $2 AND message_id = $1`,
      [messageId, organizationId],
    );
  }
}
