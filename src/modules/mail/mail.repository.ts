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
