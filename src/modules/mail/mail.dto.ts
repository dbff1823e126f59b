import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Min } from 'class-validator';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { MAIL_KINDS } from './mail-templates';
import type { MailLogRow } from './mail.repository';

export class MailLogEntryDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: MAIL_KINDS, example: 'conversation_reply' }) kind!: string;
  @ApiProperty({ example: 'ada@example.com' }) recipient!: string;
  @ApiProperty({ example: 'New reply from Acme' }) subject!: string;
  @ApiProperty({
    enum: ['queued', 'sent', 'failed'],
    description:
      '`queued` until sent or given up (retried with backoff; a mail waiting for the budget of new recipients stays queued, see `held_until`); `failed` after the last attempt, at once on an SMTP 5xx answer, or when SMTP_URL is unset (then the mail was logged, not sent)',
  })
  status!: string;
  @ApiProperty({ description: 'Attempts made so far' }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The last failed attempt’s error' })
  last_error!: string | null;
  @ApiProperty({ example: '<5f0c...@mail.example.com>' }) message_id!: string;
  @ApiProperty({ type: Number, nullable: true }) site_id!: number | null;
  @ApiProperty({ type: Number, nullable: true }) conversation_id!: number | null;
  @ApiProperty({ type: Number, nullable: true }) ticket_id!: number | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sent_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Set while a `queued` mail waits (see `held_reason`): it is sent then, not before; null otherwise',
  })
  held_until!: string | null;
  @ApiProperty({
    type: String,
    enum: ['new_recipient_budget', null],
    nullable: true,
    description:
      'Why the mail waits: `new_recipient_budget`, the organization has mailed its hourly budget of addresses that never wrote to it (MAIL_NEW_RECIPIENTS_PER_HOUR_PER_ORG); null when it does not wait',
  })
  held_reason!: string | null;
}

export class MailLogPageDto extends PageMetaDto {
  @ApiProperty({ type: [MailLogEntryDto] }) data!: MailLogEntryDto[];
}

export class MailLogEntryResponseDto extends EnvelopeDto {
  @ApiProperty({ type: MailLogEntryDto }) data!: MailLogEntryDto;
}

export class SendTestMailDto {
  @ApiPropertyOptional({
    description: 'The site whose name and colour the mail carries (default: the first site)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  site_id?: number;
}

const id = (value: string | null) => (value === null ? null : Number(value));

export function toMailLogEntryDto(row: MailLogRow): MailLogEntryDto {
  return {
    id: Number(row.id),
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    message_id: row.message_id,
    site_id: id(row.site_id),
    conversation_id: id(row.conversation_id),
    ticket_id: id(row.ticket_id),
    created_at: new Date(row.created_at).toISOString(),
    sent_at: row.sent_at ? new Date(row.sent_at).toISOString() : null,
    held_until: row.held_until ? new Date(row.held_until).toISOString() : null,
    held_reason: row.held_reason,
  };
}
