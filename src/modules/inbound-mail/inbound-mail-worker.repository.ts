import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isUniqueViolation, query, sql } from '../../database/sql';

export type InboundDoor = 'http' | 'smtp' | 'imap';
export type InboundStatus = 'received' | 'processed' | 'rejected' | 'duplicate';

export interface StoredInbound {
  id: string;
  door: InboundDoor;
  envelope_to: string[];
  raw: Buffer;
  status: InboundStatus;
}

/**
 * The incoming mail store, across organizations: a mail is stored before anything knows whose
 * it is (the organization is set when it is matched). Only the inbound mail service uses it.
 */
@Injectable()
export class InboundMailWorkerRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(mail: {
    door: InboundDoor;
    clientAddress: string | null;
    envelopeFrom: string | null;
    envelopeTo: string[];
    raw: Buffer;
  }): Promise<string> {
    const [row] = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`INSERT INTO inbound_mails (door, client_address, envelope_from, envelope_to, raw, size)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        mail.door,
        mail.clientAddress,
        mail.envelopeFrom,
        mail.envelopeTo,
        mail.raw,
        mail.raw.length,
      ],
    );
    return row.id;
  }

  async find(id: string): Promise<StoredInbound | undefined> {
    const [row] = await sql(
      this.dataSource,
      query<StoredInbound>`SELECT id::text AS id, door, envelope_to, raw, status FROM inbound_mails WHERE id = $1`,
      [id],
    );
    return row;
  }

  /**
   * Matched to an organization and taken, in the transaction that delivers it. The organization's
   * unique index on the Message-ID decides between two copies: the loser's statement fails
   * (`isMessageIdTaken`) and its delivery rolls back with it. A row no longer `received` (another
   * instance took it meanwhile) throws MailNoLongerReceived, with the same effect.
   */
  async markProcessed(
    manager: EntityManager,
    id: string,
    result: {
      organizationId: string;
      messageId: string | null;
      fromAddress: string;
      subject: string | null;
      outcome: string;
      conversationId: string | null;
      ticketId: string | null;
      senderMismatch: boolean;
    },
  ): Promise<void> {
    const rows = await sql(
      manager,
      query<{
        id: string;
      }>`UPDATE inbound_mails SET status = 'processed', organization_id = $2, message_id = $3,
         from_address = $4, subject = $5, outcome = $6, conversation_id = $7, ticket_id = $8,
         sender_mismatch = $9, attempts = attempts + 1, processed_at = now(), last_error = NULL
       WHERE id = $1 AND status = 'received' RETURNING id`,
      [
        id,
        result.organizationId,
        result.messageId,
        result.fromAddress,
        result.subject,
        result.outcome,
        result.conversationId,
        result.ticketId,
        result.senderMismatch,
      ],
    );
    if (rows.length === 0) throw new MailNoLongerReceived(id);
  }

  /**
   * Claims the Message-ID for this mail in its organization before it is delivered: false when
   * another mail (another door, another instance, the same mail sent four times at once) holds
   * it, received or processed. The unique index decides, so a check that reads first cannot let
   * two through. The claim is the mail's own row: the sweep that parses it again after a crash
   * claims it again without conflict, and refusing the mail (any other status) releases it.
   */
  async claimMessageId(id: string, organizationId: string, messageId: string): Promise<boolean> {
    try {
      await sql(
        this.dataSource,
        query`UPDATE inbound_mails SET organization_id = $2, message_id = $3
         WHERE id = $1 AND status = 'received'`,
        [id, organizationId, messageId],
      );
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return false;
    }
  }

  /**
   * Refused or a duplicate: the row stays (what was refused and why, for the operator), the raw
   * mail does not. A stranger's refused mail is nobody's to keep, and keeping it let anyone fill
   * the database with mail that is answered 550.
   */
  async markRejected(
    id: string,
    outcome: string,
    status: 'rejected' | 'duplicate' = 'rejected',
    organizationId: string | null = null,
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE inbound_mails SET status = $3, outcome = $2, organization_id = $4,
         attempts = attempts + 1, processed_at = now(), raw = '\\x'::bytea
       WHERE id = $1 AND status = 'received'`,
      [id, outcome, status, organizationId],
    );
  }

  /** A failed parse attempt (the mail stays `received`, to be parsed again). */
  async recordError(id: string, error: string): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE inbound_mails SET attempts = attempts + 1, last_error = $2 WHERE id = $1`,
      [id, error.slice(0, 1000)],
    );
  }

  /** Mails stored but not yet parsed for a while: a crash (or a failure) stopped them. */
  staleReceived(olderThanSeconds: number, limit: number) {
    return sql(
      this.dataSource,
      query<{ id: string }>`SELECT id::text AS id FROM inbound_mails
       WHERE status = 'received' AND received_at < now() - make_interval(secs => $1) AND attempts < 10
       ORDER BY received_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
  }

  /** Retention (MAIL_RETENTION_DAYS): incoming mails stored longer ago, whatever became of them. */
  async deleteOlderThan(days: number): Promise<number> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`DELETE FROM inbound_mails WHERE received_at < now() - make_interval(days => $1) RETURNING id`,
      [days],
    );
    return rows.length;
  }
}

/** The incoming mail was taken (or refused) by another process while this one delivered it. */
export class MailNoLongerReceived extends Error {
  constructor(id: string) {
    super(`incoming mail ${id} is no longer waiting to be delivered`);
  }
}

/** Whether `error` is the organization's Message-ID index refusing a second copy of a mail. */
export function isMessageIdTaken(error: unknown): boolean {
  const constraint = (error as { driverError?: { constraint?: string } } | null)?.driverError
    ?.constraint;
  return isUniqueViolation(error) && constraint === 'inbound_mails_message_once_idx';
}
