import { Module } from '@nestjs/common';
import { OutboxService } from './outbox.service';

/** Publishing domain events in a transaction, and subscribing to them (OutboxService). */
@Module({ providers: [OutboxService], exports: [OutboxService] })
export class OutboxModule {}
