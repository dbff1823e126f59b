import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CryptoModule } from './common/crypto/crypto.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { ResponseShapeGuard } from './common/http/response-shape.guard';
import { createValidationPipe } from './common/http/validation.pipe';
import { AppConfigModule } from './config/config.module';
import type { Environment } from './config/environment';
import { dataSourceOptions } from './database/data-source-options';
import { DATABASE_RUNTIME, type DatabaseRuntime } from './database/database-runtime';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { AccountLoginModule } from './modules/account-login/account-login.module';
import { AssignmentModule } from './modules/assignment/assignment.module';
import { CannedResponsesModule } from './modules/canned-responses/canned-responses.module';
import { LabelsModule } from './modules/labels/labels.module';
import { ReportsModule } from './modules/reports/reports.module';
import { SearchModule } from './modules/search/search.module';
import { VisitorPanelModule } from './modules/visitor-panel/visitor-panel.module';
import { AttachmentsModule } from './modules/attachments/attachments.module';
import { AppointmentsModule } from './modules/appointments/appointments.module';
import { AuthModule } from './modules/auth/auth.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { DataLookupModule } from './modules/data-lookup/data-lookup.module';
import { DocsModule } from './modules/docs/docs.module';
import { GatewaysModule } from './modules/realtime/gateways.module';
import { RealtimeModule } from './modules/realtime/realtime.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { WidgetModule } from './modules/widget/widget.module';
import { WebModule } from './modules/web/web.module';
import { HealthModule } from './modules/health/health.module';
import { IdempotencyModule } from './modules/idempotency/idempotency.module';
import { OutboxModule } from './modules/outbox/outbox.module';
import { TicketsModule } from './modules/tickets/tickets.module';
import { VisitorsModule } from './modules/visitors/visitors.module';
import { queueConnection } from './queue/queue-connection';
import { QueueModule } from './queue/queue.module';

export interface AppModuleOptions {
  env: Environment;
  database: DatabaseRuntime;
}

@Module({})
export class AppModule {
  static forRoot({ env, database }: AppModuleOptions): DynamicModule {
    const workers = env.WORKERS_ENABLED;
    return {
      module: AppModule,
      global: true,
      imports: [
        AppConfigModule,
        TypeOrmModule.forRoot(dataSourceOptions(database.url)),
        QueueModule.forRoot({ workers, connection: queueConnection(env.REDIS_URL, database.url) }),
        OutboxModule.forRoot({ workers }),
        RateLimitModule,
        HealthModule,
        DocsModule,
        AuthModule,
        RealtimeModule,
        AttachmentsModule,
        ConversationsModule.forRoot({ workers }),
        VisitorsModule,
        WidgetModule,
        GatewaysModule,
        TicketsModule,
        AppointmentsModule,
        IdempotencyModule,
        CryptoModule,
        WebhooksModule.forRoot({ workers }),
        DataLookupModule,
        AccountLoginModule.forRoot({ workers }),
        CannedResponsesModule,
        LabelsModule,
        AssignmentModule,
        SearchModule,
        ReportsModule,
        VisitorPanelModule,
        WebModule,
      ],
      providers: [
        { provide: DATABASE_RUNTIME, useValue: database },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        // No global interceptor: a route with any pays for an Observable pipeline per request.
        // Success bodies get their envelope from JsonExpressAdapter, told how by this guard;
        // idempotency is per route (@Idempotent()).
        { provide: APP_GUARD, useClass: ResponseShapeGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
      exports: [DATABASE_RUNTIME],
    };
  }
}
