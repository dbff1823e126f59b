import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '../../common/auth/auth.types';
import { handTyped, query, sql } from '../../database/sql';
import type { AgentStatus } from '../agents/agents.repository';
import { AGENT_NOTIFICATION_KINDS, type AgentNotificationKind } from '../mail/mail-templates';

export type NotificationPreferences = Record<AgentNotificationKind, boolean>;

/** A conversation or a ticket: what one mail is about. */
export type NotificationThread = { conversationId: string } | { ticketId: string };

/** An agent to tell: who, where, and whether they are in the dashboard now. */
export interface NotifiedAgent {
  id: string;
  status: AgentStatus;
}

export interface PendingNotification {
  id: string;
  kind: AgentNotificationKind;
  detail: string;
}

const threadColumns = (thread: NotificationThread) =>
  'conversationId' in thread
    ? { conversationId: thread.conversationId, ticketId: null }
    : { conversationId: null, ticketId: thread.ticketId };

/**
 * Agents' notification choices (a missing row: every kind on) and the notifications waiting to
 * be mailed together; every statement names the organization.
 */
@Injectable()
export class AgentNotificationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  // A column per kind (AGENT_NOTIFICATION_KINDS), written out: the check compares each statement's
  // columns with NotificationPreferences, so a kind added there fails it until it is here too.

  async preferences(organizationId: string, userId: string): Promise<NotificationPreferences> {
    const [row] = await sql(
      this.dataSource,
      query<NotificationPreferences>`SELECT new_conversation, conversation_assigned, visitor_reply, missed_chat,
         ticket_assigned, customer_reply
       FROM agent_notification_preferences WHERE organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
    return (
      row ??
      (Object.fromEntries(
        AGENT_NOTIFICATION_KINDS.map((kind) => [kind, true]),
      ) as NotificationPreferences)
    );
  }

  /** Changes the kinds given (the others keep their value, on by default). */
  async setPreferences(
    organizationId: string,
    userId: string,
    changes: Partial<NotificationPreferences>,
  ): Promise<NotificationPreferences> {
    const [row] = await sql(
      this.dataSource,
      query<NotificationPreferences>`INSERT INTO agent_notification_preferences (user_id, organization_id,
         new_conversation, conversation_assigned, visitor_reply, missed_chat, ticket_assigned, customer_reply)
       SELECT id, organization_id, coalesce($3::boolean, true), coalesce($4::boolean, true),
         coalesce($5::boolean, true), coalesce($6::boolean, true), coalesce($7::boolean, true),
         coalesce($8::boolean, true)
       FROM users WHERE organization_id = $1 AND id = $2
       ON CONFLICT (user_id) DO UPDATE SET
         new_conversation = coalesce($3::boolean, agent_notification_preferences.new_conversation),
         conversation_assigned = coalesce($4::boolean, agent_notification_preferences.conversation_assigned),
         visitor_reply = coalesce($5::boolean, agent_notification_preferences.visitor_reply),
         missed_chat = coalesce($6::boolean, agent_notification_preferences.missed_chat),
         ticket_assigned = coalesce($7::boolean, agent_notification_preferences.ticket_assigned),
         customer_reply = coalesce($8::boolean, agent_notification_preferences.customer_reply),
         updated_at = now()
       WHERE agent_notification_preferences.organization_id = $1
       RETURNING new_conversation, conversation_assigned, visitor_reply, missed_chat, ticket_assigned,
         customer_reply`,
      [
        organizationId,
        userId,
        changes.new_conversation ?? null,
        changes.conversation_assigned ?? null,
        changes.visitor_reply ?? null,
        changes.missed_chat ?? null,
        changes.ticket_assigned ?? null,
        changes.customer_reply ?? null,
      ],
    );
    return row;
  }

  /**
   * The active members who want `kind`: those named (`userIds`), or those of `roles`, or
   * everyone (neither given).
   */
  recipients(
    organizationId: string,
    kind: AgentNotificationKind,
    who: { userIds?: string[]; roles?: Role[] },
  ): Promise<NotifiedAgent[]> {
    if (!(AGENT_NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`unknown notification kind ${kind}`);
    }
    return sql(
      this.dataSource,
      query<NotifiedAgent>`SELECT u.id::text AS id, u.status FROM users u
       LEFT JOIN agent_notification_preferences p
         ON p.user_id = u.id AND p.organization_id = u.organization_id
       WHERE u.organization_id = $1 AND u.removed_at IS NULL
         AND ($2::bigint[] IS NULL OR u.id = ANY($2::bigint[]))
         AND ($3::text[] IS NULL OR u.role = ANY($3::text[]))
         AND coalesce(CASE $4::text WHEN 'new_conversation' THEN p.new_conversation
           WHEN 'conversation_assigned' THEN p.conversation_assigned
           WHEN 'visitor_reply' THEN p.visitor_reply WHEN 'missed_chat' THEN p.missed_chat
           WHEN 'ticket_assigned' THEN p.ticket_assigned WHEN 'customer_reply' THEN p.customer_reply
           END, true)
       ORDER BY u.id`,
      [organizationId, who.userIds ?? null, who.roles ?? null, kind],
    );
  }

  async add(
    organizationId: string,
    userId: string,
    thread: NotificationThread,
    notification: { kind: AgentNotificationKind; detail: string },
  ): Promise<string> {
    const { conversationId, ticketId } = threadColumns(thread);
    const [row] = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`INSERT INTO agent_notifications (organization_id, user_id, kind, conversation_id, ticket_id, detail)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [organizationId, userId, notification.kind, conversationId, ticketId, notification.detail],
    );
    return row.id;
  }

  /**
   * Serializes the mailing of one agent's notifications about one thread for the transaction,
   * so two jobs cannot both mail within one digest window.
   */
  async lockThread(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    thread: NotificationThread,
  ): Promise<void> {
    const key = 'conversationId' in thread ? `c${thread.conversationId}` : `t${thread.ticketId}`;
    await sql(
      manager,
      query<{
        pg_advisory_xact_lock: void | null;
      }>`SELECT pg_advisory_xact_lock(7012, hashtext($1 || ':' || $2 || ':' || $3))`,
      [organizationId, userId, key],
    );
  }

  /** When the agent was last mailed about the thread (null: never, or a day ago and forgotten). */
  async lastMailedAt(
    organizationId: string,
    userId: string,
    thread: NotificationThread,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Date | null> {
    const { conversationId, ticketId } = threadColumns(thread);
    const [row] = await sql(
      manager,
      handTyped<{ at: Date | null }>`SELECT max(mailed_at) AS at FROM agent_notifications
       WHERE organization_id = $1 AND user_id = $2
         AND conversation_id IS NOT DISTINCT FROM $3 AND ticket_id IS NOT DISTINCT FROM $4`,
      [organizationId, userId, conversationId, ticketId],
    );
    return row?.at ?? null;
  }

  /** The agent's notifications about the thread not mailed yet, oldest first. */
  pending(
    organizationId: string,
    userId: string,
    thread: NotificationThread,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PendingNotification[]> {
    const { conversationId, ticketId } = threadColumns(thread);
    return sql(
      manager,
      handTyped<PendingNotification>`SELECT id::text AS id, kind, detail FROM agent_notifications
       WHERE organization_id = $1 AND user_id = $2 AND mailed_at IS NULL
         AND conversation_id IS NOT DISTINCT FROM $3 AND ticket_id IS NOT DISTINCT FROM $4
       ORDER BY id LIMIT 50`,
      [organizationId, userId, conversationId, ticketId],
    );
  }

  /** Marks them mailed, and forgets what was mailed more than a day ago. */
  async markMailed(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    ids: string[],
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE agent_notifications SET mailed_at = now()
       WHERE organization_id = $1 AND user_id = $2 AND id = ANY($3::bigint[])`,
      [organizationId, userId, ids],
    );
    await sql(
      manager,
      query`DELETE FROM agent_notifications
       WHERE organization_id = $1 AND user_id = $2 AND mailed_at < now() - interval '1 day'`,
      [organizationId, userId],
    );
  }
}
