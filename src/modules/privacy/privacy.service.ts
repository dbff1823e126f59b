import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { AuditLogService } from '../audit/audit-log.service';
import { conversationUpdate } from '../conversations/chat-pushes';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { privacyEvents } from './privacy-events';
import type { VisitorExportDto } from './privacy.dto';
import { type ErasedCounts, PrivacyRepository } from './privacy.repository';
import { iso } from '../../common/time/iso';

/** How many expired conversations one retention transaction erases. */
const RETENTION_BATCH = 200;

/**
 * A visitor's data (DESIGN section 12): everything held about them as JSON, their erasure in one
 * transaction (with its audit row and `visitor.erased`), and the sites' retention of closed
 * conversations.
 */
@Injectable()
export class PrivacyService {
  private readonly logger = new Logger('privacy');

  constructor(
    private readonly repository: PrivacyRepository,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
    private readonly outbox: OutboxService,
    private readonly realtime: RealtimeService,
    private readonly config: AppConfig,
  ) {}

  /** Everything held about the visitor; the export itself is audited. */
  async export(organizationId: string, visitorId: string): Promise<VisitorExportDto> {
    const visitor = await this.repository.visitor(this.dataSource, organizationId, visitorId);
    if (!visitor) throw AppError.notFound();
    const conversations = await this.repository.conversations(organizationId, visitorId);
    const conversationIds = conversations.map((row) => row.id);
    const messages = await this.repository.messages(organizationId, conversationIds);
    const attachments = await this.repository.attachments(
      organizationId,
      messages.map((row) => row.id),
    );
    const tickets = await this.repository.tickets(organizationId, visitor, conversationIds);
    const appointments = await this.repository.appointments(
      organizationId,
      visitorId,
      conversationIds,
    );
    await this.dataSource.transaction((manager) =>
      this.audit.record(manager, organizationId, {
        action: 'visitor.exported',
        target: { type: 'visitor', id: visitorId, label: `Visitor #${visitorId}` },
      }),
    );
    const publicUrl = this.config.publicUrl;
    return {
      exported_at: new Date().toISOString(),
      visitor: {
        id: Number(visitor.id),
        site_id: Number(visitor.site_id),
        visitor_uid: visitor.visitor_uid,
        name: visitor.name,
        email: visitor.email,
        phone: visitor.phone,
        country: visitor.country,
        language: visitor.language,
        custom_fields: visitor.custom_fields,
        pre_chat_submitted: visitor.pre_chat_submitted,
        platform: visitor.platform,
        app_id: visitor.app_id,
        app_version: visitor.app_version,
        app_build: visitor.app_build,
        page_url: visitor.page_url,
        page_title: visitor.page_title,
        last_seen_at: iso(visitor.last_seen_at),
        created_at: iso(visitor.created_at),
        erased_at: iso(visitor.erased_at),
      },
      consent: { consented_at: iso(visitor.consented_at) },
      conversations: conversations.map((conversation) => ({
        id: Number(conversation.id),
        site_id: Number(conversation.site_id),
        status: conversation.status,
        started_at: iso(conversation.started_at),
        closed_at: iso(conversation.closed_at),
        rating: conversation.rating,
        review_comment: conversation.review_comment,
        created_at: iso(conversation.created_at),
        messages: messages
          .filter((message) => message.conversation_id === conversation.id)
          .map((message) => ({
            id: Number(message.id),
            sender_type: message.sender_type,
            sender_id: message.sender_id === null ? null : Number(message.sender_id),
            body: message.body,
            type: message.type,
            private: message.private,
            created_at: iso(message.created_at),
            attachments: attachments
              .filter((file) => file.message_id === message.id)
              .map((file) => ({
                id: Number(file.id),
                file_name: file.file_name,
                content_type: file.content_type,
                size: Number(file.size),
                url: `${publicUrl}/api/attachments/${file.token}`,
              })),
          })),
      })),
      tickets: tickets.map((ticket) => ({
        id: Number(ticket.id),
        ticket_number: ticket.ticket_number,
        subject: ticket.subject,
        description: ticket.description,
        status: ticket.status,
        priority: ticket.priority,
        customer_name: ticket.customer_name,
        customer_email: ticket.customer_email,
        created_at: iso(ticket.created_at),
      })),
      appointments: appointments.map((appointment) => ({
        id: Number(appointment.id),
        site_id: Number(appointment.site_id),
        scheduled_at: iso(appointment.scheduled_at),
        ends_at: iso(appointment.ends_at),
        status: appointment.status,
        visitor_name: appointment.visitor_name,
        visitor_email: appointment.visitor_email,
        visitor_phone: appointment.visitor_phone,
        notes: appointment.notes,
        created_at: iso(appointment.created_at),
      })),
    };
  }

  /**
   * Erases the visitor in one transaction: all of it or nothing. After the commit, a live chat's
   * widget is told (`visitor.erased`) and its sockets close; the agents see the chat closed.
   */
  async erase(
    organizationId: string,
    visitorId: string,
  ): Promise<ErasedCounts & { visitor_id: number; erased_at: string }> {
    const erasedAt = new Date();
    const { counts, live } = await this.dataSource.transaction(async (manager) => {
      const visitor = await this.repository.visitor(manager, organizationId, visitorId, true);
      if (!visitor) throw AppError.notFound();
      const live = await this.repository.openConversations(manager, organizationId, visitorId);
      const conversationIds = (await this.repository.conversations(organizationId, visitorId)).map(
        (row) => row.id,
      );
      const counts = await this.repository.eraseVisitor(manager, organizationId, visitor);
      // What was erased is not written down: only that it was, and how much.
      await this.audit.record(manager, organizationId, {
        action: 'visitor.erased',
        target: { type: 'visitor', id: visitorId, label: `Visitor #${visitorId}` },
        changes: { after: { ...counts } },
      });
      await this.outbox.publish(
        manager,
        privacyEvents.visitorErased(organizationId, visitor, conversationIds, erasedAt),
      );
      return { counts, live };
    });
    this.realtime.toVisitor(visitorId, 'visitor.erased', { visitor_id: Number(visitorId) });
    for (const conversationId of live) {
      this.realtime.toOrganization(
        organizationId,
        'conversation.updated',
        conversationUpdate(conversationId, 'closed', null, erasedAt),
      );
    }
    // After the push above (a socket's close waits for what it was sent).
    this.realtime.disconnectVisitor(visitorId);
    return { visitor_id: Number(visitorId), erased_at: erasedAt.toISOString(), ...counts };
  }

  /**
   * The retention job: the content of closed conversations older than their site's
   * `retention_days` is erased, a batch per transaction, each organization's batch audited as
   * the system's doing.
   */
  async applyRetention(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.repository.expiredConversations(RETENTION_BATCH);
      if (expired.length === 0) return total;
      const byOrganization = new Map<string, string[]>();
      for (const row of expired) {
        const ids = byOrganization.get(row.organization_id) ?? [];
        ids.push(row.id);
        byOrganization.set(row.organization_id, ids);
      }
      for (const [organizationId, ids] of byOrganization) {
        await this.dataSource.transaction(async (manager) => {
          const erased = await this.repository.eraseConversations(manager, organizationId, ids);
          await this.audit.record(manager, organizationId, {
            action: 'conversation.retention_erased',
            target: { type: 'conversation', id: null, label: `${ids.length} conversations` },
            changes: { after: { conversation_ids: ids.map(Number), ...erased } },
            actor: { type: 'system', name: 'retention' },
          });
        });
        total += ids.length;
      }
      this.logger.log({ msg: 'conversations past retention erased', count: expired.length });
      if (expired.length < RETENTION_BATCH) return total;
    }
  }
}
