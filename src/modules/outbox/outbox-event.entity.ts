import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A domain event written in the same transaction as the change that caused it. The relay moves
 * committed rows into the queue; a rolled-back transaction leaves no row, so nothing is sent.
 */
@Entity({ name: 'outbox_events' })
@Index('outbox_events_pending_idx', ['id'], { where: 'enqueued_at IS NULL' })
export class OutboxEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'organization_id', type: 'bigint', nullable: true })
  organizationId!: string | null;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'enqueued_at', type: 'timestamptz', nullable: true })
  enqueuedAt!: Date | null;

  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true })
  processedAt!: Date | null;
}
