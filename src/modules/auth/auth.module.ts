import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AgentsModule } from '../agents/agents.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { AuthCoverageCheck } from './auth-coverage.check';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { SessionsRepository } from './sessions.repository';

@Module({
  imports: [DiscoveryModule, AgentsModule, ApiKeysModule, OrganizationsModule, SitesModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    SessionsRepository,
    AuthCoverageCheck,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [AuthService],
})
export class AuthModule {}
