import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DataLookupModule } from '../data-lookup/data-lookup.module';
import { MailModule } from '../mail/mail.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AccountLoginController } from './account-login.controller';
import { AccountLoginRepository } from './account-login.repository';
import { AccountLoginService } from './account-login.service';
import { LoginCodeService } from './login-code.service';
import { TrustedLoginController, TrustedLoginSettingsController } from './trusted-login.controller';
import { TrustedLoginService } from './trusted-login.service';

/**
 * Visitor account login (identifier, mailed code, trusted). Codes are mailed through MailModule.
 * What a logged-in visitor reads of the owner's records is VisitorRecordsModule's.
 */
@Module({
  imports: [
    AuditModule,
    DataLookupModule,
    MailModule,
    OrganizationsModule,
    SitesModule,
    VisitorsModule,
  ],
  controllers: [AccountLoginController, TrustedLoginSettingsController, TrustedLoginController],
  providers: [AccountLoginRepository, AccountLoginService, LoginCodeService, TrustedLoginService],
  exports: [AccountLoginService],
})
export class AccountLoginModule {}
