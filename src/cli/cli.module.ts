import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CryptoModule } from '../common/crypto/crypto.module';
import { AppConfigModule } from '../config/config.module';
import { dataSourceOptions } from '../database/data-source-options';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../database/database-runtime';
import { AgentsModule } from '../modules/agents/agents.module';
import { ApiKeysModule } from '../modules/api-keys/api-keys.module';
import { OrganizationsModule } from '../modules/organizations/organizations.module';
import { OutboxModule } from '../modules/outbox/outbox.module';
import { RealtimeModule } from '../modules/realtime/realtime.module';
import { SitesModule } from '../modules/sites/sites.module';

/** The services the platform-administration commands use: no HTTP, no queue, no workers. */
@Module({})
export class CliModule {
  static forRoot(database: DatabaseRuntime): DynamicModule {
    return {
      module: CliModule,
      global: true,
      imports: [
        AppConfigModule,
        CryptoModule,
        TypeOrmModule.forRoot(dataSourceOptions(database.url, { extra: { max: 2 } })),
        OrganizationsModule,
        AgentsModule,
        SitesModule,
        ApiKeysModule,
        // Team changes close sockets; without gateways attached that goes nowhere.
        RealtimeModule,
        // Presence changes publish events (written to the outbox; relayed by the app's workers).
        OutboxModule.forRoot({ workers: false }),
      ],
      providers: [{ provide: DATABASE_RUNTIME, useValue: database }],
      exports: [DATABASE_RUNTIME],
    };
  }
}
