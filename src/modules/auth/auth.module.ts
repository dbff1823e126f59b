import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AgentsModule } from '../agents/agents.module';
import { MailModule } from '../mail/mail.module';
import { AccountsController } from './accounts.controller';
import { ProfileController } from './profile.controller';
import { TwoFactorController } from './two-factor.controller';
import { TwoFactorRepository } from './two-factor.repository';
import { TwoFactorService } from './two-factor.service';
import { AccountsService } from './accounts.service';
import { InvitationsRepository } from './invitations.repository';
import { LoginTokensRepository } from './login-tokens.repository';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuditModule } from '../audit/audit.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PlatformModule } from '../platform/platform.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AuthCoverageCheck } from './auth-coverage.check';
import { AuthController } from './auth.controller';
import { ThrottlerModule } from '@nestjs/throttler';
import { ReservedBudget } from '../../common/rate-limit/reserved-budget';
import { SharedThrottlerStorage } from '../../common/rate-limit/throttler-storage';
import { AppConfig } from '../../config/app-config';
import { ApiThrottlerGuard } from './api-throttler.guard';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { SsoController } from './sso.controller';
import { SsoRepository } from './sso.repository';
import { SsoService } from './sso.service';
import { LoginFailuresRepository } from './login-failures.repository';
import { LoginThrottle } from './login-throttle';
import { SessionsRepository } from './sessions.repository';
import { WidgetSessionService } from './widget-session.service';

@Module({
  imports: [
    DiscoveryModule,
    AgentsModule,
    ApiKeysModule,
    MailModule,
    AuditModule,
    OrganizationsModule,
    PlatformModule,
    RealtimeModule,
    SitesModule,
    VisitorsModule,
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, ReservedBudget],
      useFactory: (config: AppConfig, budget: ReservedBudget) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.env.RATE_LIMIT_PER_MINUTE }],
        storage: new SharedThrottlerStorage(budget),
      }),
    }),
  ],
  controllers: [
    AuthController,
    AccountsController,
    ProfileController,
    TwoFactorController,
    SsoController,
  ],
  providers: [
    AuthService,
    SsoService,
    SsoRepository,
    AccountsService,
    TwoFactorService,
    TwoFactorRepository,
    InvitationsRepository,
    LoginTokensRepository,
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
