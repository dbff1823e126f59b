import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { DataLookupController } from './data-lookup.controller';
import { DataLookupRepository } from './data-lookup.repository';
import { DataLookupSettingsService } from './data-lookup-settings.service';
import { DataLookupService } from './data-lookup.service';
import { OwnerDatabases } from './owner-database/owner-databases';

/** The site owner's database: settings, connections and the queries read from it. */
@Module({
  imports: [AuditModule, OrganizationsModule, SitesModule],
  controllers: [DataLookupController],
  providers: [DataLookupRepository, DataLookupSettingsService, DataLookupService, OwnerDatabases],
  exports: [DataLookupService],
})
export class DataLookupModule {}
