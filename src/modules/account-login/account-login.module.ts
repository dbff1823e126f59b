import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { DataLookupModule } from '../data-lookup/data-lookup.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SitesModule } from '../sites/sites.module';
import { VisitorsModule } from '../visitors/visitors.module';
import { AccountLoginController } from './account-login.controller';
import { AccountLoginRepository } from './account-login.repository';
import { AccountLoginService } from './account-login.service';
import { LoginCodeMailProcessor } from './login-code-mail.processor';
import { LoginCodeMailer } from './login-code-mailer';
import { LoginCodeService } from './login-code.service';
import { TrustedLoginController, TrustedLoginSettingsController } from './trusted-login.controller';
import { TrustedLoginService } from './trusted-login.service';
import { VisitorRecordsService } from './visitor-records.service';

/**
 * Visitor account login (identifier, mailed code, trusted) and what a logged-in visitor can read
 * of the owner's records. The code mail worker runs where workers run (QueueWorkers).
 */
@Module({
  imports: [
    ConversationsModule,
    DataLookupModule,
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
    LoginCodeMailer,
    LoginCodeMailProcessor,
  ],
  exports: [AccountLoginService],
})
export class AccountLoginModule {}
