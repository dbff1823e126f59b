import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql } from '../../database/sql';

/** How far each conversation's replies were mailed, and the visitors who turned mails off. */
@Injectable()
export class ConversationMailRepository {
  constructor(private readonly dataSource: DataSource) {}

  async handledThrough(organizationId: string, conversationId: string): Promise<string> {
    const [row] = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`SELECT handled_through_message_id::text AS id FROM conversation_mail_state
       WHERE organization_id = $1 AND conversation_id = $2`,
      [organizationId, conversationId],
    );
    return row?.id ?? '0';
  }

  /** Moves the mark forward (never back). */
  async markHandled(organizationId: string, conversationId: string, messageId: string) {
    await sql(
      this.dataSource,
      query`INSERT INTO conversation_mail_state (conversation_id, organization_id, handled_through_message_id)
       SELECT id, organization_id, $3 FROM conversations WHERE organization_id = $1 AND id = $2
       ON CONFLICT (conversation_id) DO UPDATE
         SET handled_through_message_id = greatest(conversation_mail_state.handled_through_message_id,
               excluded.handled_through_message_id), updated_at = now()
         WHERE conversation_mail_state.organization_id = $1`,
      [organizationId, conversationId, messageId],
    );
  }

  async mailsOff(organizationId: string, visitorId: string): Promise<boolean> {
    const [row] = await sql(
      this.dataSource,
      query<{ conversation_mails: boolean }>`SELECT conversation_mails FROM visitor_mail_preferences
       WHERE organization_id = $1 AND visitor_id = $2`,
      [organizationId, visitorId],
    );
    return row?.conversation_mails === false;
  }

  async setMails(organizationId: string, visitorId: string, enabled: boolean): Promise<void> {
    await sql(
      this.dataSource,
      query`INSERT INTO visitor_mail_preferences (visitor_id, organization_id, conversation_mails)
       SELECT id, organization_id, $3 FROM visitors WHERE organization_id = $1 AND id = $2
       ON CONFLICT (visitor_id) DO UPDATE SET conversation_mails = excluded.conversation_mails,
         updated_at = now()
       WHERE visitor_mail_preferences.organization_id = $1`,
      [organizationId, visitorId, enabled],
    );
  }
}
