import { Module } from '@nestjs/common';
import { AccountLoginModule } from '../account-login/account-login.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DataLookupModule } from '../data-lookup/data-lookup.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { VisitorRecordsController } from './visitor-records.controller';
import { VisitorRecordsRepository } from './visitor-records.repository';
import { VisitorRecordsService } from './visitor-records.service';

/**
 * What a logged-in visitor reads of the owner's records: the record search, the keyword bot's
 * answers (from the outbox) with their later pages, and row actions. It asks AccountLoginModule
 * whose account the visitor is; account login knows nothing of it.
 */
@Module({
  imports: [
    AccountLoginModule,
    ConversationsModule,
    DataLookupModule,
    OrganizationsModule,
    OutboxModule,
  ],
  controllers: [VisitorRecordsController],
  providers: [VisitorRecordsRepository, VisitorRecordsService],
})
export class VisitorRecordsModule {}
