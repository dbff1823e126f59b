import { WEEKDAYS, type Weekday } from '../../common/time/working-hours';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { PageMetaDto, PageQueryDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { WidgetVisitorBodyDto } from '../../common/dto/widget-visitor.dto';
import {
  APPOINTMENT_STATUSES,
  type AppointmentRow,
  type AppointmentStatus,
} from './appointments.repository';
import { DateTime } from 'luxon';
import { formatAppointment, isoWithOffset, type Slot } from './availability';

import {
  ContactField,
  IsInstantWithOffset,
  IsLocalDate,
  OptionalText,
  PositiveInt,
  SiteIdQuery,
  emailProblem,
  textProblem,
} from './appointment-fields';

// ---- widget requests -------------------------------------------------------------------------

export class AvailabilityRequestDto {
  @ApiProperty({
    description: 'The site widget key (a session token is not taken here)',
    example: 'wk_0123456789abcdefABCDEF0123456789',
  })
  @IsString()
  widget_key!: string;

  @ApiProperty({
    format: 'date',
    example: '2027-03-29',
    description: "A date in the site's time zone",
  })
  @IsLocalDate()
  date!: string;
}

export class BookAppointmentDto extends WidgetVisitorBodyDto {
  @ApiProperty({
    format: 'date-time',
    example: '2027-03-29T09:00:00+02:00',
    description:
      'The `starts_at` of an available slot, with an offset (any offset naming the same instant)',
  })
  @IsInstantWithOffset()
  scheduled_at!: string;

  @ApiPropertyOptional({
    maxLength: 255,
    example: 'Ada Lovelace',
    description: 'Required when visitor_email is left out',
  })
  @ContactField('visitor_email', textProblem)
  visitor_name?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    format: 'email',
    example: 'ada@example.com',
    description: 'Required when visitor_name is left out',
  })
  @ContactField('visitor_name', emailProblem)
  visitor_email?: string;

  @OptionalText(50, 'A phone number to reach the visitor', '+49 30 1234567')
  visitor_phone?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      'A conversation of this visitor (422 otherwise); it gets a system message announcing the booking',
  })
  @IsOptional()
  @PositiveInt()
  conversation_id?: number;

  @OptionalText(255, 'The label of the button the visitor booked from', 'Book a demo')
  button_label?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'The bot template the booking came from',
  })
  @IsOptional()
  @PositiveInt()
  bot_template_id?: number;
}

// ---- agent requests --------------------------------------------------------------------------

export class SiteQueryDto {
  @SiteIdQuery()
  site_id?: number;
}

export class AppointmentQueryDto extends PageQueryDto {
  @SiteIdQuery()
  site_id?: number;

  @ApiPropertyOptional({ enum: APPOINTMENT_STATUSES })
  @IsOptional()
  @IsIn(APPOINTMENT_STATUSES)
  status?: AppointmentStatus;

  @ApiPropertyOptional({
    format: 'date',
    example: '2027-03-01',
    description: "Appointments on or after this date in the site's time zone",
  })
  @IsOptional()
  @IsLocalDate()
  from?: string;

  @ApiPropertyOptional({
    format: 'date',
    example: '2027-03-31',
    description: "Appointments on or before this date in the site's time zone",
  })
  @IsOptional()
  @IsLocalDate()
  to?: string;
}

export class UpdateAppointmentDto {
  @ApiProperty({ enum: APPOINTMENT_STATUSES })
  @IsIn(APPOINTMENT_STATUSES)
  status!: AppointmentStatus;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    description: 'Internal notes, seen by agents only; null clears them, omitted keeps them',
  })
  @ValidateIf((_: unknown, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(2000)
  notes?: string | null;
}

// ---- responses -------------------------------------------------------------------------------

export class SlotDto {
  @ApiProperty({ format: 'date-time', example: '2027-03-29T09:00:00+02:00' }) starts_at!: string;
  @ApiProperty({ format: 'date-time', example: '2027-03-29T09:30:00+02:00' }) ends_at!: string;
  @ApiProperty({
    example: '09:00',
    description:
      'Local start time; a time the clocks show twice (autumn) adds its offset: `02:30 (+01:00)`',
  })
  label!: string;
  @ApiProperty() available!: boolean;
  @ApiProperty({ enum: ['available', 'booked'] }) status!: string;
}

export class AvailabilityResponseDto extends EnvelopeDto {
  @ApiProperty({ format: 'date', example: '2027-03-29' }) date!: string;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({
    format: 'date',
    example: '2027-04-12',
    description:
      "The last date that can have slots (today plus advance_days, in the site's time zone): a day picker ends there",
  })
  last_date!: string;
  @ApiProperty({
    enum: WEEKDAYS,
    isArray: true,
    example: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
    description: 'The weekdays with working hours: a day picker offers only these',
  })
  working_weekdays!: Weekday[];
  @ApiProperty({
    type: [SlotDto],
    description:
      'In time order; empty on closed days, past days and days beyond advance_days. Slots within min_notice_hours are left out.',
  })
  slots!: SlotDto[];
}

/** An appointment as the visitor who booked it sees it (no internal notes). */
export class WidgetAppointmentDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: APPOINTMENT_STATUSES }) status!: string;
  @ApiProperty({ format: 'date-time', example: '2027-03-29T09:00:00+02:00' })
  scheduled_at!: string;
  @ApiProperty({ format: 'date-time', example: '2027-03-29T09:30:00+02:00' }) ends_at!: string;
  @ApiProperty({ example: 'Europe/Berlin', description: "The site's time zone" })
  timezone!: string;
  @ApiProperty({ example: 'Monday, 29 March 2027, 09:00–09:30 (Europe/Berlin)' })
  formatted!: string;
  @ApiProperty({ type: String, nullable: true }) visitor_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) visitor_email!: string | null;
  @ApiProperty({ type: String, nullable: true }) visitor_phone!: string | null;
  @ApiProperty({ type: Number, nullable: true }) conversation_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) button_label!: string | null;
  @ApiProperty({ type: Number, nullable: true }) bot_template_id!: number | null;
}

export class BookingResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetAppointmentDto }) appointment!: WidgetAppointmentDto;
}

export class AgentAppointmentDto extends WidgetAppointmentDto {
  @ApiProperty() site_id!: number;
  @ApiProperty({ type: Number, nullable: true }) visitor_id!: number | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 2000 }) notes!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class AppointmentPageDto extends PageMetaDto {
  @ApiProperty({ type: [AgentAppointmentDto] }) data!: AgentAppointmentDto[];
}

export class AppointmentChangeDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: APPOINTMENT_STATUSES }) status!: string;
  @ApiProperty({ type: String, nullable: true }) notes!: string | null;
}

export class AppointmentChangeResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AppointmentChangeDto }) data!: AppointmentChangeDto;
}

// ---- mappers: rows and slots as the widget and the agents see them, in the site's zone -------

const numberOrNull = (value: string | null): number | null =>
  value === null ? null : Number(value);

export const toSlotDto = (slot: Slot): SlotDto => ({
  starts_at: isoWithOffset(slot.startsAt),
  ends_at: isoWithOffset(slot.endsAt),
  label: slot.label,
  available: slot.available,
  status: slot.status,
});

export function toWidgetAppointment(row: AppointmentRow, timezone: string): WidgetAppointmentDto {
  const start = DateTime.fromJSDate(row.scheduled_at, { zone: timezone });
  const end = DateTime.fromJSDate(row.ends_at, { zone: timezone });
  return {
    id: Number(row.id),
    status: row.status,
    scheduled_at: isoWithOffset(start),
    ends_at: isoWithOffset(end),
    timezone,
    formatted: formatAppointment(start, end),
    visitor_name: row.visitor_name,
    visitor_email: row.visitor_email,
    visitor_phone: row.visitor_phone,
    conversation_id: numberOrNull(row.conversation_id),
    button_label: row.button_label,
    bot_template_id: numberOrNull(row.bot_template_id),
  };
}

export const toAgentAppointment = (row: AppointmentRow, timezone: string): AgentAppointmentDto => ({
  ...toWidgetAppointment(row, timezone),
  site_id: Number(row.site_id),
  visitor_id: numberOrNull(row.visitor_id),
  notes: row.notes,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});
