import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, query, sql, type SqlExecutor } from '../../database/sql';
import type { AppointmentStatus } from '../appointments/appointments.repository';
import type { ConversationStatus } from '../conversations/conversations.repository';
import type { SenderType } from '../messages/messages.service';
import type { TicketPriority, TicketStatus } from '../tickets/ticket-rows';
import type { CustomFields } from '../visitors/visitors.repository';

/**
 * Everything held about a visitor, read and erased across the tables that hold it (visitors,
 * conversations, messages, attachments, tickets, appointments, mail): the one place that knows
 * where a person's data lies (docs/decisions.md, "Privacy"). Every statement names the
 * organization.
 */
export interface ExportVisitorRow {
  id: string;
  site_id: string;
  visitor_uid: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  country: string | null;
  language: string | null;
  custom_fields: CustomFields;
  pre_chat_submitted: boolean;
  platform: string | null;
  app_id: string | null;
  app_version: string | null;
  app_build: string | null;
  page_url: string | null;
  page_title: string | null;
  last_seen_at: Date | null;
  created_at: Date;
  consented_at: Date | null;
  erased_at: Date | null;
}

export interface ExportConversationRow {
  id: string;
  site_id: string;
  status: ConversationStatus;
  started_at: Date | null;
  closed_at: Date | null;
  rating: number | null;
  review_comment: string | null;
  created_at: Date;
}

export interface ExportMessageRow {
  id: string;
  conversation_id: string;
  sender_type: SenderType;
  sender_id: string | null;
  body: string;
  type: string;
  private: boolean;
  created_at: Date;
}

export interface ExportAttachmentRow {
  id: string;
  message_id: string;
  token: string;
  file_name: string;
  content_type: string;
  size: number;
}

export interface ExportTicketRow {
  id: string;
  ticket_number: string;
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  customer_name: string | null;
  customer_email: string | null;
  created_at: Date;
}

export interface ExportAppointmentRow {
  id: string;
  site_id: string;
  scheduled_at: Date;
  ends_at: Date;
  status: AppointmentStatus;
  visitor_name: string | null;
  visitor_email: string | null;
  visitor_phone: string | null;
  notes: string | null;
  created_at: Date;
}

export interface ErasedCounts {
  conversations: number;
  messages: number;
  attachments: number;
  tickets: number;
  appointments: number;
}

const ERASED_NAME = 'Erased visitor';
/** What stands in place of an erased text that its column requires. */
const ERASED = '[erased]';

// The visitor's tickets, in the statements that read and erase them, with `$2` the visitor, `$3`
// its conversations and `$4` its address: opened in its chats or by it, or by mail from its
// address (an email ticket names no visitor). Written out in each, so that each is checked.

@Injectable()
export class PrivacyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The visitor, locked when `forUpdate` (the erasure), or undefined in another organization. */
  async visitor(
    executor: SqlExecutor,
    organizationId: string,
    visitorId: string,
    forUpdate = false,
  ): Promise<ExportVisitorRow | undefined> {
    const rows = await sql(
      executor,
      forUpdate
        ? query<ExportVisitorRow>`SELECT id, site_id, visitor_uid, name, email, phone, country, language, custom_fields,
              pre_chat_submitted, platform, app_id, app_version, app_build, page_url, page_title,
              last_seen_at, created_at, consented_at, erased_at
       FROM visitors WHERE organization_id = $1 AND id = $2 FOR UPDATE`
        : query<ExportVisitorRow>`SELECT id, site_id, visitor_uid, name, email, phone, country, language, custom_fields,
              pre_chat_submitted, platform, app_id, app_version, app_build, page_url, page_title,
              last_seen_at, created_at, consented_at, erased_at
       FROM visitors WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  conversations(organizationId: string, visitorId: string): Promise<ExportConversationRow[]> {
    return sql(
      this.dataSource,
      query<ExportConversationRow>`SELECT id, site_id, status, started_at, closed_at, rating, review_comment, created_at
       FROM conversations WHERE organization_id = $1 AND visitor_id = $2 ORDER BY id`,
      [organizationId, visitorId],
    );
  }

  messages(organizationId: string, conversationIds: string[]): Promise<ExportMessageRow[]> {
    return sql(
      this.dataSource,
      query<ExportMessageRow>`SELECT id, conversation_id, sender_type, sender_id, body, type, private, created_at
       FROM messages WHERE organization_id = $1 AND conversation_id = ANY($2::bigint[])
       ORDER BY id`,
      [organizationId, conversationIds],
    );
  }

  attachments(organizationId: string, messageIds: string[]): Promise<ExportAttachmentRow[]> {
    return sql(
      this.dataSource,
      handTyped<ExportAttachmentRow>`SELECT id, message_id, token, file_name, content_type, size
       FROM attachments WHERE organization_id = $1 AND message_id = ANY($2::bigint[]) ORDER BY id`,
      [organizationId, messageIds],
    );
  }

  /** The visitor's tickets: opened in its chats or by it, or by mail from its address. */
  tickets(
    organizationId: string,
    visitor: { id: string; email: string | null },
    conversationIds: string[],
  ): Promise<ExportTicketRow[]> {
    return sql(
      this.dataSource,
      query<ExportTicketRow>`SELECT id, ticket_number, subject, description, status, priority, customer_name,
              customer_email, created_at
       FROM tickets WHERE organization_id = $1 AND (visitor_id = $2 OR conversation_id = ANY($3::bigint[])
  OR ($4::text IS NOT NULL AND lower(customer_email) = lower($4::text)))
       ORDER BY id`,
      [organizationId, visitor.id, conversationIds, visitor.email],
    );
  }

  appointments(
    organizationId: string,
    visitorId: string,
    conversationIds: string[],
  ): Promise<ExportAppointmentRow[]> {
    return sql(
      this.dataSource,
      query<ExportAppointmentRow>`SELECT id, site_id, scheduled_at, ends_at, status, visitor_name, visitor_email,
              visitor_phone, notes, created_at
       FROM appointments WHERE organization_id = $1
         AND (visitor_id = $2 OR conversation_id = ANY($3::bigint[]))
       ORDER BY id`,
      [organizationId, visitorId, conversationIds],
    );
  }

  /** The visitor's conversations still open (waiting or active), for the live chat's pushes. */
  async openConversations(
    executor: SqlExecutor,
    organizationId: string,
    visitorId: string,
  ): Promise<string[]> {
    const rows = await sql(
      executor,
      query<{
        id: string;
      }>`SELECT id FROM conversations WHERE organization_id = $1 AND visitor_id = $2
         AND status IN ('waiting', 'active') AND started_at IS NOT NULL`,
      [organizationId, visitorId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Erases the content of these conversations (inside the caller's transaction): messages go,
   * and with them their attachments (the stored files are their rows) and data-lookup replies;
   * the review comment, mail threads and the mails' contents go; the rows stay, closed, with the
   * times, status and rating the reports count.
   */
  async eraseConversations(
    executor: SqlExecutor,
    organizationId: string,
    conversationIds: string[],
  ): Promise<{ messages: number; attachments: number }> {
    if (conversationIds.length === 0) return { messages: 0, attachments: 0 };
    const [attachments] = await sql(
      executor,
      query<{
        count: number;
      }>`SELECT count(*)::int AS count FROM attachments a JOIN messages m ON m.id = a.message_id
       WHERE a.organization_id = $1 AND m.organization_id = $1
         AND m.conversation_id = ANY($2::bigint[])`,
      [organizationId, conversationIds],
    );
    const messages = await sql(
      executor,
      query<{
        id: string;
      }>`DELETE FROM messages WHERE organization_id = $1 AND conversation_id = ANY($2::bigint[])
       RETURNING id`,
      [organizationId, conversationIds],
    );
    await sql(
      executor,
      query`UPDATE conversations SET
         status = CASE WHEN status IN ('waiting', 'active') THEN 'closed' ELSE status END,
         closed_at = CASE WHEN status IN ('waiting', 'active') AND started_at IS NOT NULL
           THEN now() ELSE closed_at END,
         review_comment = NULL, locale = NULL,
         visitor_read_message_id = NULL, agent_read_message_id = NULL,
         erased_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = ANY($2::bigint[])`,
      [organizationId, conversationIds],
    );
    await sql(
      executor,
      query`DELETE FROM conversation_mail_state
       WHERE conversation_id IN (SELECT id FROM conversations
         WHERE organization_id = $1 AND id = ANY($2::bigint[]))`,
      [organizationId, conversationIds],
    );
    await sql(
      executor,
      query`DELETE FROM mail_tokens WHERE organization_id = $1 AND conversation_id = ANY($2::bigint[])`,
      [organizationId, conversationIds],
    );
    await this.eraseMails(executor, organizationId, { conversationIds });
    await sql(
      executor,
      query`UPDATE agent_notifications SET detail = ''
       WHERE organization_id = $1 AND conversation_id = ANY($2::bigint[])`,
      [organizationId, conversationIds],
    );
    await this.redactEvents(executor, organizationId, { conversationIds });
    await sql(
      executor,
      query`UPDATE inbound_mails SET raw = '\\x'::bytea, size = 0, subject = NULL, from_address = NULL,
         envelope_from = NULL
       WHERE organization_id = $1 AND conversation_id = ANY($2::bigint[])`,
      [organizationId, conversationIds],
    );
    return { messages: messages.length, attachments: attachments.count };
  }

  /**
   * Erases the visitor (inside the caller's transaction): every conversation's content, the
   * customer details of its tickets and the visitor details of its appointments, its logins and
   * mail preferences, and its profile. The visitor row stays, emptied, under a new UID with its
   * session ended, so its tokens and old UID stop working and the report figures keep their
   * counts.
   */
  async eraseVisitor(
    executor: SqlExecutor,
    organizationId: string,
    visitor: ExportVisitorRow,
  ): Promise<ErasedCounts> {
    const conversationIds = (
      await sql(
        executor,
        query<{
          id: string;
        }>`SELECT id FROM conversations WHERE organization_id = $1 AND visitor_id = $2 FOR UPDATE`,
        [organizationId, visitor.id],
      )
    ).map((row) => row.id);
    const content = await this.eraseConversations(executor, organizationId, conversationIds);
    // Its tickets' customer details, subject and description, and the customer's comments; the
    // agents' comments are the organization's record and stay (docs/decisions.md, issue 28).
    const tickets = await sql(
      executor,
      query<{
        id: string;
      }>`UPDATE tickets SET customer_name = NULL, customer_email = NULL, subject = $5,
         description = $5, updated_at = now()
       WHERE organization_id = $1 AND (visitor_id = $2 OR conversation_id = ANY($3::bigint[])
  OR ($4::text IS NOT NULL AND lower(customer_email) = lower($4::text)))
       RETURNING id`,
      [organizationId, visitor.id, conversationIds, visitor.email, ERASED],
    );
    const ticketIds = tickets.map((row) => row.id);
    const comments = await sql(
      executor,
      query<{ id: string }>`UPDATE ticket_comments SET body = $3
       WHERE organization_id = $1 AND ticket_id = ANY($2::bigint[]) AND author_type <> 'agent'
       RETURNING id`,
      [organizationId, ticketIds, ERASED],
    );
    await sql(
      executor,
      query`UPDATE agent_notifications SET detail = ''
       WHERE organization_id = $1 AND ticket_id = ANY($2::bigint[])`,
      [organizationId, ticketIds],
    );
    // The mails about its tickets or to its address: their contents, subjects and its address;
    // the reply and unsubscribe addresses they gave; the acknowledgement limit on its address.
    await this.eraseMails(executor, organizationId, { ticketIds, address: visitor.email });
    await sql(
      executor,
      query`DELETE FROM mail_tokens WHERE organization_id = $1 AND (ticket_id = ANY($2::bigint[])
         OR ($3::text IS NOT NULL AND lower(recipient) = lower($3::text)))`,
      [organizationId, ticketIds, visitor.email],
    );
    if (visitor.email) {
      await sql(executor, query`DELETE FROM rate_limit_hits WHERE lower(key) = lower($1)`, [
        `ticket-ack:${organizationId}:${visitor.email}`,
      ]);
    }
    await sql(
      executor,
      query`UPDATE inbound_mails SET raw = '\\x'::bytea, size = 0, subject = NULL, from_address = NULL,
         envelope_from = NULL
       WHERE organization_id = $1 AND (ticket_id = ANY($2::bigint[])
         OR ($3::text IS NOT NULL AND lower(from_address) = lower($3::text)))`,
      [organizationId, ticketIds, visitor.email],
    );
    await this.redactEvents(executor, organizationId, {
      ticketIds,
      commentIds: comments.map((row) => row.id),
    });
    const appointments = await sql(
      executor,
      query<{
        id: string;
      }>`UPDATE appointments SET visitor_name = $4, visitor_email = NULL, visitor_phone = NULL,
         notes = NULL, updated_at = now()
       WHERE organization_id = $1 AND (visitor_id = $2 OR conversation_id = ANY($3::bigint[]))
       RETURNING id`,
      [organizationId, visitor.id, conversationIds, ERASED_NAME],
    );
    await sql(
      executor,
      query`DELETE FROM visitor_account_logins WHERE visitor_id IN
         (SELECT id FROM visitors WHERE organization_id = $1 AND id = $2)`,
      [organizationId, visitor.id],
    );
    await sql(
      executor,
      query`DELETE FROM visitor_login_codes WHERE visitor_id IN
         (SELECT id FROM visitors WHERE organization_id = $1 AND id = $2)`,
      [organizationId, visitor.id],
    );
    await sql(
      executor,
      query`DELETE FROM visitor_mail_preferences WHERE visitor_id IN
         (SELECT id FROM visitors WHERE organization_id = $1 AND id = $2)`,
      [organizationId, visitor.id],
    );
    await sql(
      executor,
      query`DELETE FROM mail_tokens WHERE organization_id = $1 AND visitor_id = $2`,
      [organizationId, visitor.id],
    );
    await sql(
      executor,
      query`UPDATE visitors SET name = NULL, email = NULL, phone = NULL, country = NULL,
         language = NULL, custom_fields = '{}', pre_chat_submitted = false, platform = NULL,
         app_id = NULL, app_version = NULL, app_build = NULL, page_url = NULL, page_title = NULL,
         consented_at = NULL, visitor_uid = gen_random_uuid(),
         session_ended_at = COALESCE(session_ended_at, now()), erased_at = now(), updated_at = now()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, visitor.id],
    );
    return {
      conversations: conversationIds.length,
      messages: content.messages,
      attachments: content.attachments,
      tickets: tickets.length,
      appointments: appointments.length,
    };
  }

  /**
   * The mail log's rows about these conversations or tickets, or to this address: subject and
   * sealed content go, the address where it is the visitor's; one still queued is not sent any
   * more (failed, "erased before it was sent"): its job finds it no longer queued. The address
   * leaves the organization's mailed addresses (`mail_recipients`) too.
   */
  private async eraseMails(
    executor: SqlExecutor,
    organizationId: string,
    of: { conversationIds?: string[]; ticketIds?: string[]; address?: string | null },
  ): Promise<void> {
    await sql(
      executor,
      query`UPDATE mail_log SET subject = $5, content_sealed = NULL,
         recipient = CASE WHEN lower(recipient) = lower($4::text) THEN $5 ELSE recipient END,
         last_error = CASE
           WHEN status = 'queued' THEN 'Erased before it was sent.'
           WHEN strpos(lower(last_error), lower($4::text)) > 0 THEN $5
           ELSE last_error END,
         status = CASE WHEN status = 'queued' THEN 'failed' ELSE status END,
         held_until = NULL, held_reason = NULL, updated_at = now()
       WHERE organization_id = $1 AND (conversation_id = ANY($2::bigint[])
         OR ticket_id = ANY($3::bigint[])
         OR ($4::text IS NOT NULL AND lower(recipient) = lower($4::text)))`,
      [organizationId, of.conversationIds ?? [], of.ticketIds ?? [], of.address ?? null, ERASED],
    );
    // The address as one the organization has mailed (the budget of new recipients) goes too.
    if (of.address) {
      await sql(
        executor,
        query`DELETE FROM mail_recipients WHERE organization_id = $1 AND address = lower($2)`,
        [organizationId, of.address],
      );
    }
  }

  /**
   * The copies of erased text in the outbox's events about these conversations, tickets and
   * customer comments (message bodies and files, the visitor's name and address, a review's
   * comment, a ticket's subject, a customer's comment) are replaced by `[erased]` (or null, or no
   * files); the webhook deliveries of those events get the redacted payload as their body,
   * pending ones included (a retry sends the ids without the text), and their attempts' logged
   * responses go (an endpoint may echo what it got).
   */
  private async redactEvents(
    executor: SqlExecutor,
    organizationId: string,
    about: { conversationIds?: string[]; ticketIds?: string[]; commentIds?: string[] },
  ): Promise<void> {
    const events = await sql(
      executor,
      query<{ id: string }>`UPDATE outbox_events SET payload = CASE
         WHEN event_type = 'conversation.started' THEN jsonb_set(payload, '{visitor}',
           jsonb_build_object('id', payload->'visitor'->'id', 'name', NULL, 'email', NULL))
         WHEN event_type IN ('message.received', 'message.sent') THEN jsonb_set(
           jsonb_set(payload, '{message,body}', to_jsonb($5::text)), '{message,attachments}',
           '[]'::jsonb)
         WHEN event_type = 'review.submitted' THEN jsonb_set(payload, '{comment}', 'null'::jsonb)
         WHEN event_type = 'ticket.created'
           THEN jsonb_set(payload, '{ticket,subject}', to_jsonb($5::text))
         WHEN event_type = 'ticket.comment_added'
           THEN jsonb_set(payload, '{comment,body}', to_jsonb($5::text))
         ELSE payload END
       WHERE organization_id = $1 AND (
         (event_type IN ('message.received', 'message.sent', 'review.submitted')
           AND (payload->>'conversation_id')::bigint = ANY($2::bigint[]))
         OR (event_type = 'conversation.started'
           AND (payload->'conversation'->>'id')::bigint = ANY($2::bigint[]))
         OR (event_type = 'ticket.created' AND (payload->'ticket'->>'id')::bigint = ANY($3::bigint[]))
         OR (event_type = 'ticket.comment_added'
           AND (payload->'comment'->>'id')::bigint = ANY($4::bigint[])))
       RETURNING id`,
      [
        organizationId,
        about.conversationIds ?? [],
        about.ticketIds ?? [],
        about.commentIds ?? [],
        ERASED,
      ],
    );
    if (events.length === 0) return;
    const deliveries = await sql(
      executor,
      query<{
        id: string;
      }>`UPDATE webhook_deliveries d SET body = jsonb_set(d.body::jsonb, '{data}', o.payload)::text
       FROM outbox_events o
       WHERE d.organization_id = $1 AND o.organization_id = $1 AND o.id = d.outbox_id
         AND o.id = ANY($2::bigint[])
       RETURNING d.id`,
      [organizationId, events.map((row) => row.id)],
    );
    await sql(
      executor,
      query`UPDATE webhook_attempts SET response_excerpt = NULL WHERE delivery_id IN
         (SELECT id FROM webhook_deliveries WHERE organization_id = $1 AND id = ANY($2::uuid[]))`,
      [organizationId, deliveries.map((row) => row.id)],
    );
  }

  /** Closed conversations of sites with a retention, closed longer ago, not erased yet. */
  async expiredConversations(
    limit: number,
  ): Promise<{ organization_id: string; site_id: string; id: string }[]> {
    return sql(
      this.dataSource,
      query<{
        organization_id: string;
        site_id: string;
        id: string;
      }>`SELECT c.organization_id, c.site_id, c.id FROM conversations c
       JOIN sites s ON s.id = c.site_id AND s.organization_id = c.organization_id
       WHERE s.retention_days IS NOT NULL AND c.closed_at IS NOT NULL AND c.erased_at IS NULL
         AND c.closed_at < now() - make_interval(days => s.retention_days)
       ORDER BY c.id LIMIT $1`,
      [limit],
    );
  }
}
