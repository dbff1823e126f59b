import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { DataLookupModule } from '../data-lookup/data-lookup.module';
import { MailModule } from '../mail/mail.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AccountLoginController } from './account-login.controller';
import { AccountLoginRepository } from './account-login.repository';
import { AccountLoginService } from './account-login.service';
import { LoginCodeService } from './login-code.service';
import { TrustedLoginController, TrustedLoginSettingsController } from './trusted-login.controller';
import { TrustedLoginService } from './trusted-login.service';
import { VisitorRecordsService } from './visitor-records.service';

/**
 * Visitor account login (identifier, mailed code, trusted) and what a logged-in visitor can read
 * of the owner's records. Codes are mailed through MailModule.
 */
@Module({
  imports: [
    ConversationsModule,
    DataLookupModule,
    MailModule,
    OrganizationsModule,
    OutboxModule,
    SitesModule,
    VisitorsModule,
  ],
  controllers: [AccountLoginController, TrustedLoginSettingsController, TrustedLoginController],
  providers: [
    AccountLoginRepository,
    AccountLoginService,
    LoginCodeService,
    TrustedLoginService,
    VisitorRecordsService,
  ],
  exports: [AccountLoginService],
})
export class AccountLoginModule {}
