import { type DynamicModule, Module } from '@nestjs/common';
import { CryptoModule } from '../common/crypto/crypto.module';
import { InvalidationModule } from '../common/invalidation/invalidation.module';
import { AppConfigModule } from '../config/config.module';
import type { DatabaseRuntime } from '../database/database-runtime';
import { DatabaseModule } from '../database/database.module';
import { AgentsModule } from '../modules/agents/agents.module';
import { ApiKeysModule } from '../modules/api-keys/api-keys.module';
import { OrganizationsModule } from '../modules/organizations/organizations.module';
import { PlatformModule } from '../modules/platform/platform.module';
import { SitesModule } from '../modules/sites/sites.module';

/**
 * The services the platform-administration commands use: no HTTP, no queue, no workers. Team
 * changes close sockets (without gateways attached that goes nowhere) and presence changes publish
 * events (written to the outbox, relayed by the app's workers): AgentsModule imports both.
 */
@Module({})
export class CliModule {
  static forRoot(database: DatabaseRuntime): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule,
        CryptoModule,
        InvalidationModule.forRoot({ listen: false }),
        DatabaseModule.forRoot(database, { extra: { max: 2 } }),
        OrganizationsModule,
        AgentsModule,
        SitesModule,
        ApiKeysModule,
        PlatformModule,
      ],
    };
  }
}
