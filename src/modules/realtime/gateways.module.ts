import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { AgentGateway } from './agent.gateway';
import { WidgetGateway } from './widget.gateway';

/** The Socket.IO namespaces `/widget` and `/agent` (DESIGN section 2). */
// ConversationsModule is global (registered once, with or without its worker).
@Module({
  imports: [AgentsModule, AuthModule, OrganizationsModule, SitesModule],
  providers: [WidgetGateway, AgentGateway],
})
export class GatewaysModule {}
