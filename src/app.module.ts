import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CryptoModule } from './common/crypto/crypto.module';
import { MetricsRegistryModule } from './common/metrics/metrics.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { ResponseShapeGuard } from './common/http/response-shape.guard';
import { createValidationPipe } from './common/http/validation.pipe';
import { AppConfigModule } from './config/config.module';
import type { Environment } from './config/environment';
import type { DatabaseRuntime } from './database/database-runtime';
import { DatabaseModule } from './database/database.module';
import { InvalidationModule } from './common/invalidation/invalidation.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { AgentNotificationsModule } from './modules/agent-notifications/agent-notifications.module';
import { AccountLoginModule } from './modules/account-login/account-login.module';
import { AssignmentModule } from './modules/assignment/assignment.module';
import { AnswerBotModule } from './modules/answer-bot/answer-bot.module';
import { BotRepliesModule } from './modules/bot-replies/bot-replies.module';
import { CannedResponsesModule } from './modules/canned-responses/canned-responses.module';
import { ContentImportModule } from './modules/content-import/content-import.module';
import { LabelsModule } from './modules/labels/labels.module';
import { KnowledgeBaseModule } from './modules/knowledge-base/knowledge-base.module';
import { MacrosModule } from './modules/macros/macros.module';
import { MailModule } from './modules/mail/mail.module';
import { ConversationMailModule } from './modules/conversation-mail/conversation-mail.module';
import { TranscriptsModule } from './modules/transcripts/transcripts.module';
import { InboundMailModule } from './modules/inbound-mail/inbound-mail.module';
import { EmailInboxesModule } from './modules/email-inboxes/email-inboxes.module';
import { ReportsModule } from './modules/reports/reports.module';
import { SearchModule } from './modules/search/search.module';
import { VisitorPanelModule } from './modules/visitor-panel/visitor-panel.module';
import { PrivacyModule } from './modules/privacy/privacy.module';
import { AttachmentsModule } from './modules/attachments/attachments.module';
import { AppointmentsModule } from './modules/appointments/appointments.module';
import { AppointmentMailModule } from './modules/appointment-mail/appointment-mail.module';
import { AuditRetentionModule } from './modules/audit/audit-retention.module';
import { AuthModule } from './modules/auth/auth.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { DataLookupModule } from './modules/data-lookup/data-lookup.module';
import { DocsModule } from './modules/docs/docs.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { WidgetModule } from './modules/widget/widget.module';
import { WebModule } from './modules/web/web.module';
import { HealthModule } from './modules/health/health.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { PlatformModule } from './modules/platform/platform.module';
import { IdempotencyModule } from './modules/idempotency/idempotency.module';
import { OutboxWorkersModule } from './modules/outbox/outbox-workers.module';
import { TicketsModule } from './modules/tickets/tickets.module';
import { VisitorsModule } from './modules/visitors/visitors.module';
import { VisitorRecordsModule } from './modules/visitor-records/visitor-records.module';
import { queueConnection } from './queue/queue-connection';
import { QueueModule } from './queue/queue.module';

export interface AppModuleOptions {
  env: Environment;
  database: DatabaseRuntime;
}

/**
 * The application: infrastructure (config, database, queue, rate limit, crypto: the only global
 * modules) and every feature module, each of which imports what it uses. Workers are providers of
 * their features, run where `WORKERS_ENABLED` is true (QueueWorkers finds them at boot).
 */
@Module({})
export class AppModule {
  static forRoot({ env, database }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule,
        DatabaseModule.forRoot(database),
        QueueModule.forRoot({ connection: queueConnection(env.REDIS_URL, database.url) }),
        RateLimitModule,
        InvalidationModule.forRoot({ listen: true }),
        CryptoModule,
        MetricsRegistryModule,
        AuditRetentionModule,
        OutboxWorkersModule,
        HealthModule,
        MetricsModule,
        PlatformModule,
        DocsModule,
        AuthModule,
        AttachmentsModule,
        MailModule,
        ConversationMailModule,
        AppointmentMailModule,
        TranscriptsModule,
        AgentNotificationsModule,
        InboundMailModule,
        EmailInboxesModule,
        ConversationsModule,
        VisitorsModule,
        WidgetModule,
        TicketsModule,
        AppointmentsModule,
        IdempotencyModule,
        WebhooksModule,
        DataLookupModule,
        AccountLoginModule,
        VisitorRecordsModule,
        CannedResponsesModule,
        BotRepliesModule,
        ContentImportModule,
        AnswerBotModule,
        LabelsModule,
        KnowledgeBaseModule,
        MacrosModule,
        AssignmentModule,
        SearchModule,
        ReportsModule,
        VisitorPanelModule,
        PrivacyModule,
        WebModule,
      ],
      providers: [
        { provide: APP_PIPE, useFactory: createValidationPipe },
        // No global interceptor: a route with any pays for an Observable pipeline per request.
        // Success bodies get their envelope from JsonExpressAdapter, told how by this guard;
        // idempotency is per route (@Idempotent()).
        { provide: APP_GUARD, useClass: ResponseShapeGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
