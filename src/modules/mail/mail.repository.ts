import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pageOf, sql } from '../../database/sql';

export type MailStatus = 'queued' | 'sent' | 'failed';

/** A mail log row as the agent API shows it. */
export interface MailLogRow {
  id: string;
  site_id: string | null;
  kind: string;
  recipient: string;
  subject: string;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  message_id: string;
  conversation_id: string | null;
  ticket_id: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/** A reply or unsubscribe token's binding. */
export interface MailTokenRow {
  organization_id: string;
  purpose: 'reply' | 'unsubscribe';
  conversation_id: string | null;
  ticket_id: string | null;
  visitor_id: string | null;
  recipient: string;
}

/** A mail about to be sent: its log row and the sealed content. */
export interface SendingRow extends MailLogRow {
  content_sealed: string | null;
}

const COLUMNS = `id, site_id, kind, recipient, subject, status, attempts, last_error, message_id,
  conversation_id, ticket_id, created_at, sent_at`;

/** The mail log: every statement names the organization. */
@Injectable()
export class MailRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    organizationId: string,
    mail: {
      siteId: string | null;
      kind: string;
      recipient: string;
      subject: string;
      messageId: string;
      conversationId: string | null;
      ticketId: string | null;
      contentSealed: string;
    },
  ): Promise<string> {
    const [row] = await sql<{ id: string }>(
      this.dataSource,
      `INSERT INTO mail_log (organization_id, site_id, kind, recipient, subject, message_id,
         conversation_id, ticket_id, content_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text AS id`,
      [
        organizationId,
        mail.siteId,
        mail.kind,
        mail.recipient,
        mail.subject,
        mail.messageId,
        mail.conversationId,
        mail.ticketId,
        mail.contentSealed,
      ],
    );
    return row.id;
  }

  async forSending(organizationId: string, id: string): Promise<SendingRow | undefined> {
    const [row] = await sql<SendingRow>(
      this.dataSource,
      `SELECT ${COLUMNS}, content_sealed FROM mail_log WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return row;
  }

  /** Sent: the content is dropped, the outcome kept. */
  async markSent(organizationId: string, id: string): Promise<void> {
    await sql(
      this.dataSource,
      `UPDATE mail_log SET status = 'sent', attempts = attempts + 1, last_error = NULL,
         content_sealed = NULL, sent_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND status = 'queued'`,
      [organizationId, id],
    );
  }

  /** A failed attempt; `final`: no attempt follows, the mail is failed and its content dropped. */
  async recordFailure(
    organizationId: string,
    id: string,
    error: string,
    final: boolean,
  ): Promise<void> {
    await sql(
      this.dataSource,
      `UPDATE mail_log SET attempts = attempts + 1, last_error = $3, updated_at = now(),
         status = CASE WHEN $4::boolean THEN 'failed' ELSE status END,
         content_sealed = CASE WHEN $4::boolean THEN NULL ELSE content_sealed END
       WHERE organization_id = $1 AND id = $2 AND status = 'queued'`,
      [organizationId, id, error.slice(0, 1000), final],
    );
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return pageOf<MailLogRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'mail_log',
        where: 'organization_id = $1',
        parameters: [organizationId],
        orderBy: 'id DESC',
      },
      page,
    );
  }

  async insertToken(
    organizationId: string,
    token: {
      hash: Buffer;
      purpose: 'reply' | 'unsubscribe';
      conversationId: string | null;
      ticketId: string | null;
      visitorId: string | null;
      recipient: string;
    },
  ): Promise<void> {
    await sql(
      this.dataSource,
      `INSERT INTO mail_tokens (token_hash, organization_id, purpose, conversation_id, ticket_id,
         visitor_id, recipient)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        token.hash,
        organizationId,
        token.purpose,
        token.conversationId,
        token.ticketId,
        token.visitorId,
        token.recipient,
      ],
    );
  }

  /** A reply or unsubscribe token by its hash: the capability itself, before any organization. */
  async findToken(hash: Buffer): Promise<MailTokenRow | undefined> {
    const [row] = await sql<MailTokenRow>(
      this.dataSource,
      `SELECT organization_id::text AS organization_id, purpose, conversation_id::text AS conversation_id,
         ticket_id::text AS ticket_id, visitor_id::text AS visitor_id, recipient
       FROM mail_tokens WHERE token_hash = $1`,
      [hash],
    );
    return row;
  }

  /** The Message-IDs of the mails of one conversation or ticket to one recipient, oldest first. */
  async threadMessageIds(
    organizationId: string,
    thread: { conversationId?: string | null; ticketId?: string | null },
    recipient: string,
  ): Promise<string[]> {
    const rows = await sql<{ message_id: string }>(
      this.dataSource,
      `SELECT message_id FROM mail_log
       WHERE organization_id = $1 AND lower(recipient) = lower($4)
         AND (($2::bigint IS NOT NULL AND conversation_id = $2) OR ($3::bigint IS NOT NULL AND ticket_id = $3))
       ORDER BY id DESC LIMIT 20`,
      [organizationId, thread.conversationId ?? null, thread.ticketId ?? null, recipient],
    );
    return rows.map((row) => row.message_id).reverse();
  }

  /** The conversation or ticket the first of these Message-IDs belongs to, in this organization. */
  async threadOfMessageIds(
    organizationId: string,
    messageIds: string[],
  ): Promise<
    { conversation_id: string | null; ticket_id: string | null; recipient: string } | undefined
  > {
    if (messageIds.length === 0) return undefined;
    const [row] = await sql<{
      conversation_id: string | null;
      ticket_id: string | null;
      recipient: string;
    }>(
      this.dataSource,
      `SELECT conversation_id::text AS conversation_id, ticket_id::text AS ticket_id, recipient
       FROM mail_log
       WHERE organization_id = $1 AND message_id = ANY($2::text[])
         AND (conversation_id IS NOT NULL OR ticket_id IS NOT NULL)
       ORDER BY id DESC LIMIT 1`,
      [organizationId, messageIds],
    );
    return row;
  }

  /**
   * Mails still queued long after their last change, across organizations: their job may have
   * been lost (a crash between the insert and the enqueue). Ids only; each job names its
   * organization.
   */
  staleQueued(olderThanSeconds: number, limit: number) {
    return sql<{ organization_id: string; id: string }>(
      this.dataSource,
      `SELECT organization_id::text AS organization_id, id::text AS id FROM mail_log
       WHERE status = 'queued' AND updated_at < now() - make_interval(secs => $1)
       ORDER BY updated_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
  }
}
