import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { InstanceHeartbeat } from './instance-heartbeat';
import { PlatformAdminsService } from './platform-admins.service';
import { PlatformController } from './platform.controller';
import { PlatformOrganizationsService } from './platform-organizations.service';
import { PlatformQueuesService } from './platform-queues.service';
import { PlatformRepository } from './platform.repository';

/**
 * Platform administration (DESIGN section 13): `/api/platform/...` for the administrators that
 * PlatformAdminsService names (the auth guard asks it), and each instance's heartbeat.
 */
@Module({
  imports: [OrganizationsModule, OutboxModule],
  controllers: [PlatformController],
  providers: [
    PlatformRepository,
    PlatformAdminsService,
    PlatformOrganizationsService,
    PlatformQueuesService,
    InstanceHeartbeat,
  ],
  exports: [PlatformAdminsService],
})
export class PlatformModule {}
