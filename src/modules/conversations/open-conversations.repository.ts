import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';
import type { ConversationStatus } from './conversations.repository';

export interface OpenConversationRow {
  id: string;
  site_id: string;
  visitor_id: string;
  status: ConversationStatus;
  started_at: Date | null;
}

/**
 * The visitor's one open conversation (not closed; unstarted, so unlisted, until its first
 * message): found and locked, made when missing, started, and kept current by the visitor's
 * messages. Every statement runs in the caller's transaction.
 */
@Injectable()
export class OpenConversationsRepository {
  /** The visitor's conversation that is not closed (started or not), locked for the transaction. */
  async lockOpenFor(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<OpenConversationRow | undefined> {
    const rows = await sql(
      manager,
      query<OpenConversationRow>`SELECT id, site_id, visitor_id, status, started_at FROM conversations
       WHERE organization_id = $1 AND visitor_id = $2 AND status <> 'closed' FOR UPDATE`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  /**
   * Whether the visitor's site asks for consent (`widget_settings.consent.enabled`) and the
   * visitor has not agreed yet: its messages are refused until it does.
   */
  async consentMissing(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<boolean> {
    const rows = await sql(
      manager,
      query<{
        missing: boolean;
      }>`SELECT (s.widget_settings -> 'consent' ->> 'enabled') = 'true' AND v.consented_at IS NULL
         AS missing
       FROM visitors v JOIN sites s ON s.id = v.site_id AND s.organization_id = v.organization_id
       WHERE v.organization_id = $1 AND v.id = $2`,
      [organizationId, visitorId],
    );
    return rows[0]?.missing === true;
  }

  /** The visitor's open conversation, locked; made (unstarted) first when there is none. */
  async lockOrMake(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    visitorId: string,
  ): Promise<OpenConversationRow> {
    const found = await this.lockOpenFor(manager, organizationId, visitorId);
    if (found) return found;
    await this.ensureOpen(manager, organizationId, siteId, visitorId, null);
    const made = await this.lockOpenFor(manager, organizationId, visitorId);
    if (!made) throw new Error('the open conversation vanished inside its transaction');
    return made;
  }

  /**
   * The visitor's open conversation, made (unstarted, so unlisted) when there is none. The unique
   * index on open conversations per visitor turns a concurrent second insert into a no-op.
   */
  async ensureOpen(
    manager: EntityManager,
    organizationId: string,
    siteId: string,
    visitorId: string,
    locale: string | null,
  ): Promise<string> {
    const inserted = await sql(
      manager,
      query<{
        id: string;
      }>`INSERT INTO conversations (organization_id, site_id, visitor_id, locale) VALUES ($1, $2, $3, $4)
       ON CONFLICT (visitor_id) WHERE status <> 'closed' DO NOTHING RETURNING id`,
      [organizationId, siteId, visitorId, locale],
    );
    if (inserted[0]) return inserted[0].id;
    const open = await sql(
      manager,
      query<{
        id: string;
      }>`SELECT id FROM conversations WHERE organization_id = $1 AND visitor_id = $2 AND status <> 'closed'`,
      [organizationId, visitorId],
    );
    return open[0].id;
  }

  /** The first message starts the conversation: listed from now on, waiting for an agent. */
  async start(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
  ): Promise<Date> {
    const rows = await sql(
      manager,
      handTyped<{
        started_at: Date;
      }>`UPDATE conversations SET started_at = now(), status = 'waiting', last_message_at = now(),
         updated_at = now() WHERE organization_id = $2 AND id = $1 RETURNING started_at`,
      [conversationId, organizationId],
    );
    return rows[0].started_at;
  }

  async recordVisitorMessage(
    manager: EntityManager,
    organizationId: string,
    conversationId: string,
  ): Promise<void> {
    await sql(
      manager,
      // The visitor's message wakes a snoozed conversation.
      query`UPDATE conversations SET last_message_at = now(), snoozed_until = NULL, updated_at = now()
       WHERE organization_id = $2 AND id = $1`,
      [conversationId, organizationId],
    );
  }
}
