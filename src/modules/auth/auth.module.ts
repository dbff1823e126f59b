import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AgentsModule } from '../agents/agents.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PlatformModule } from '../platform/platform.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AuthCoverageCheck } from './auth-coverage.check';
import { AuthController } from './auth.controller';
import { ThrottlerModule } from '@nestjs/throttler';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { SharedThrottlerStorage } from '../../common/rate-limit/throttler-storage';
import { AppConfig } from '../../config/app-config';
import { ApiThrottlerGuard } from './api-throttler.guard';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { LoginFailuresRepository } from './login-failures.repository';
import { LoginThrottle } from './login-throttle';
import { SessionsRepository } from './sessions.repository';
import { WidgetSessionService } from './widget-session.service';

@Module({
  imports: [
    DiscoveryModule,
    AgentsModule,
    ApiKeysModule,
    OrganizationsModule,
    PlatformModule,
    RealtimeModule,
    SitesModule,
    VisitorsModule,
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, RATE_LIMIT_STORE],
      useFactory: (config: AppConfig, store: RateLimitStore) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.env.RATE_LIMIT_PER_MINUTE }],
        storage: new SharedThrottlerStorage(store),
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SessionsRepository,
    LoginFailuresRepository,
    LoginThrottle,
    WidgetSessionService,
    AuthCoverageCheck,
    ApiThrottlerGuard,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AuthService, WidgetSessionService],
})
export class AuthModule {}
