import { Injectable, Logger } from '@nestjs/common';
import { PeriodicSweep } from '../../queue/periodic-sweep';
import { BackgroundWorker } from '../../queue/queue-worker';
import { RealtimeService } from '../realtime/realtime.service';
import { conversationUpdate } from './chat-pushes';
import { ConversationsRepository } from './conversations.repository';

const EVERY_MS = 10_000;
const BATCH = 500;

/**
 * Snoozed conversations whose time has come (issue 26): the lists already show them from that
 * moment (they filter on `snoozed_until > now()`), this clears the mark and tells the agents'
 * dashboards, so an open inbox shows them back without a reload. Each row is taken by one
 * instance (SKIP LOCKED); the visitor never hears of a snooze.
 */
@Injectable()
@BackgroundWorker()
export class SnoozeWakeSweep extends PeriodicSweep {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly realtime: RealtimeService,
  ) {
    super(new Logger('snooze'), EVERY_MS, 'snooze wake-up sweep failed');
  }

  protected async sweep(): Promise<void> {
    for (;;) {
      const woken = await this.conversations.wakeDue(BATCH);
      for (const row of woken) {
        this.realtime.toOrganization(row.organization_id, 'conversation.updated', {
          ...conversationUpdate(row.id, row.status, row.assigned_agent_id, row.closed_at),
          snoozed_until: null,
        });
      }
      if (woken.length < BATCH) return;
    }
  }
}
