import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { MeController } from './me.controller';
import { OrganizationSettingsController } from './organization-settings.controller';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

@Module({
  imports: [AuditModule],
  controllers: [MeController, OrganizationSettingsController],
  providers: [OrganizationsRepository, OrganizationsService],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
