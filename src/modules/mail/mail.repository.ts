import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Batcher } from '../../common/batcher';
import { handTyped, pageOf, query, sql } from '../../database/sql';

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
  /** Waiting until then, for the reason given (a MailHoldReason; the CHECK lists them). */
  held_until: Date | null;
  held_reason: string | null;
}

/** Why a queued mail waits: `new_recipient_budget` (MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG). */
export type MailHoldReason = 'new_recipient_budget';

/** A reply or unsubscribe token's binding. */
export type MailTokenPurpose = 'reply' | 'unsubscribe';

export interface MailTokenRow {
  organization_id: string;
  purpose: MailTokenPurpose;
  conversation_id: string | null;
  ticket_id: string | null;
  visitor_id: string | null;
  /** The agent a notification went to: their answer by mail is written as them. */
  user_id: string | null;
  recipient: string;
}

/** A mail about to be sent: its log row and the sealed content. */
export interface SendingRow extends MailLogRow {
  content_sealed: string | null;
}

interface MailKey {
  organizationId: string;
  id: string;
}

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
    const [row] = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`INSERT INTO mail_log (organization_id, site_id, kind, recipient, subject, message_id,
         conversation_id, ticket_id, content_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
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

  /**
   * The mails the send workers are about to send, read in one statement for all the jobs that
   * start together (a burst of mails costs a statement per batch, not per mail).
   */
  private readonly reads = new Batcher<MailKey, SendingRow | undefined>(async (keys) => {
    const rows = await sql(
      this.dataSource,
      query<SendingRow>`SELECT m.id, m.site_id, m.kind, m.recipient, m.subject, m.status, m.attempts,
           m.last_error, m.message_id, m.conversation_id, m.ticket_id, m.created_at, m.sent_at,
           m.held_until, m.held_reason, m.content_sealed
         FROM unnest($1::bigint[], $2::bigint[]) AS k(organization_id, id)
         JOIN mail_log m ON m.organization_id = k.organization_id AND m.id = k.id`,
      [keys.map((k) => k.organizationId), keys.map((k) => k.id)],
    );
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return keys.map((k) => byId.get(String(k.id)));
  });

  /** Sent: the content is dropped, the outcome kept; one statement for the mails sent together. */
  private readonly sent = new Batcher<MailKey, void>(async (keys) => {
    await sql(
      this.dataSource,
      query`UPDATE mail_log m SET status = 'sent', attempts = attempts + 1, last_error = NULL,
         content_sealed = NULL, sent_at = now(), updated_at = now(), held_until = NULL,
         held_reason = NULL
         FROM unnest($1::bigint[], $2::bigint[]) AS k(organization_id, id)
        WHERE m.organization_id = k.organization_id AND m.id = k.id AND m.status = 'queued'`,
      [keys.map((k) => k.organizationId), keys.map((k) => k.id)],
    );
    return keys.map(() => undefined);
  });

  forSending(organizationId: string, id: string): Promise<SendingRow | undefined> {
    return this.reads.add({ organizationId, id });
  }

  markSent(organizationId: string, id: string): Promise<void> {
    return this.sent.add({ organizationId, id });
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
      query`UPDATE mail_log SET attempts = attempts + 1, last_error = $3, updated_at = now(),
         status = CASE WHEN $4::boolean THEN 'failed' ELSE status END,
         content_sealed = CASE WHEN $4::boolean THEN NULL ELSE content_sealed END
       WHERE organization_id = $1 AND id = $2 AND status = 'queued'`,
      [organizationId, id, error.slice(0, 1000), final],
    );
  }

  /**
   * Whether the organization already knows `address` (lower case): one of its members, or an
   * address it mailed before (counted in the budget then). A mail it received says nothing: its
   * `From` is whatever the sender wrote, and a forged one must not open the budget.
   */
  async knownRecipient(organizationId: string, address: string): Promise<boolean> {
    const [row] = await sql(
      this.dataSource,
      handTyped<{ known: boolean }>`SELECT
         EXISTS (SELECT 1 FROM mail_recipients WHERE organization_id = $1 AND address = $2)
         OR EXISTS (SELECT 1 FROM users u JOIN logins l ON l.id = u.login_id
                     WHERE u.organization_id = $1 AND u.removed_at IS NULL AND lower(l.email) = $2)
         AS known`,
      [organizationId, address],
    );
    return row.known;
  }

  /**
   * Counts a new address against the organization's hourly budget: admitted (and known from then
   * on) while fewer than `perHour` new addresses were admitted in the last hour, else the time a
   * place frees up. One organization's admissions are serialized, so two mails sent at once cannot
   * both take the last place; the same address admitted twice counts once.
   */
  admitNewRecipient(
    organizationId: string,
    address: string,
    perHour: number,
  ): Promise<{ admitted: true } | { admitted: false; freeAt: Date }> {
    return this.dataSource.transaction(async (manager) => {
      await sql(
        manager,
        query<{
          pg_advisory_xact_lock: void | null;
        }>`SELECT pg_advisory_xact_lock(7013, hashint8($1::bigint))`,
        [organizationId],
      );
      const recent = await sql(
        manager,
        query<{
          address: string;
          first_mailed_at: Date;
        }>`SELECT address, first_mailed_at FROM mail_recipients
         WHERE organization_id = $1 AND first_mailed_at > now() - interval '1 hour'
         ORDER BY first_mailed_at DESC LIMIT $2`,
        [organizationId, perHour],
      );
      if (recent.length >= perHour && !recent.some((row) => row.address === address)) {
        // The oldest of the last `perHour` admissions leaves the hour first.
        const oldest = recent[recent.length - 1].first_mailed_at;
        return { admitted: false, freeAt: new Date(new Date(oldest).getTime() + 3_600_000) };
      }
      await sql(
        manager,
        query`INSERT INTO mail_recipients (organization_id, address) VALUES ($1, $2)
         ON CONFLICT (organization_id, address) DO NOTHING`,
        [organizationId, address],
      );
      return { admitted: true };
    });
  }

  /** The mail waits (still queued) until `until`, and the log says why. */
  async hold(
    organizationId: string,
    id: string,
    until: Date,
    reason: MailHoldReason,
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE mail_log SET held_until = $3, held_reason = $4, updated_at = now()
       WHERE organization_id = $1 AND id = $2 AND status = 'queued'`,
      [organizationId, id, until, reason],
    );
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return pageOf(
      this.dataSource,
      {
        rows: query<MailLogRow>`SELECT id, site_id, kind, recipient, subject, status, attempts, last_error, message_id,
  conversation_id, ticket_id, created_at, sent_at, held_until, held_reason FROM mail_log
          WHERE organization_id = $1
          ORDER BY id DESC LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM mail_log
          WHERE organization_id = $1`,
      },
      [organizationId],
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
      userId?: string | null;
      recipient: string;
    },
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`INSERT INTO mail_tokens (token_hash, organization_id, purpose, conversation_id, ticket_id,
         visitor_id, recipient, user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        token.hash,
        organizationId,
        token.purpose,
        token.conversationId,
        token.ticketId,
        token.visitorId,
        token.recipient,
        token.userId ?? null,
      ],
    );
  }

  /** A reply or unsubscribe token by its hash: the capability itself, before any organization. */
  async findToken(hash: Buffer): Promise<MailTokenRow | undefined> {
    const [row] = await sql(
      this.dataSource,
      query<MailTokenRow>`SELECT organization_id::text AS organization_id, purpose, conversation_id::text AS conversation_id,
         ticket_id::text AS ticket_id, visitor_id::text AS visitor_id, user_id::text AS user_id, recipient
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
    const rows = await sql(
      this.dataSource,
      query<{ message_id: string }>`SELECT message_id FROM mail_log
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
    const [row] = await sql(
      this.dataSource,
      query<{
        conversation_id: string | null;
        ticket_id: string | null;
        recipient: string;
      }>`SELECT conversation_id::text AS conversation_id, ticket_id::text AS ticket_id, recipient
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
   * been lost (a crash between the insert and the enqueue). A mail waiting for the budget of new
   * recipients has a delayed job until its time, and counts only once that is long past. Ids
   * only; each job names its organization.
   */
  staleQueued(olderThanSeconds: number, limit: number) {
    return sql(
      this.dataSource,
      query<{
        organization_id: string;
        id: string;
      }>`SELECT organization_id::text AS organization_id, id::text AS id FROM mail_log
       WHERE status = 'queued' AND updated_at < now() - make_interval(secs => $1)
         AND (held_until IS NULL OR held_until < now() - make_interval(secs => $1))
       ORDER BY updated_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
  }

  /**
   * Retention (MAIL_RETENTION_DAYS): log rows of every organization written longer ago, once
   * their mail is sent or failed for good (a queued one still has to go), and the mailed
   * addresses (`mail_recipients`) first mailed longer ago.
   */
  async deleteOlderThan(days: number): Promise<number> {
    const rows = await sql(
      this.dataSource,
      query<{ id: string }>`DELETE FROM mail_log
       WHERE created_at < now() - make_interval(days => $1) AND status <> 'queued' RETURNING id`,
      [days],
    );
    // Addresses first mailed that long ago are not kept either (mailed again, one counts as new).
    await sql(
      this.dataSource,
      query`DELETE FROM mail_recipients WHERE first_mailed_at < now() - make_interval(days => $1)`,
      [days],
    );
    return rows.length;
  }
}
