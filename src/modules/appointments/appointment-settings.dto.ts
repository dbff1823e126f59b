import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min, registerDecorator, ValidateIf } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { SiteSettings } from './appointment-settings.service';
import {
  completeWorkingHours,
  MAX_RANGES_PER_DAY,
  type TimeRange,
  type Weekday,
  workingHoursProblems,
} from '../../common/time/working-hours';

/** Present means validated: `null` is a wrong value here, not an omission. */
const UnlessOmitted = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);

/** An integer setting within the spec's range (section 8). */
const Minutes = (minimum: number, maximum: number, fallback: number, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum, maximum, default: fallback, description }),
    UnlessOmitted(),
    IsInt(),
    Min(minimum),
    Max(maximum),
  );

/** Weekday keys with lists of non-overlapping `HH:MM` ranges; the message names each problem. */
const IsWorkingHours = () => (target: object, propertyName: string) =>
  registerDecorator({
    name: 'isWorkingHours',
    target: target.constructor,
    propertyName,
    validator: {
      validate: (value: unknown) => workingHoursProblems(value).length === 0,
      defaultMessage: (args) =>
        workingHoursProblems(args?.value)
          .map((problem) => `The ${problem}`)
          .join(' '),
    },
  });

export class TimeRangeDto {
  @ApiProperty({ example: '09:00', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' }) start!: string;
  @ApiProperty({
    example: '17:00',
    pattern: '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$',
    description: 'After start; 24:00 is midnight at the end of the day',
  })
  end!: string;
}

const day = (required: boolean) =>
  (required ? ApiProperty : ApiPropertyOptional)({
    type: [TimeRangeDto],
    maxItems: MAX_RANGES_PER_DAY,
  });

/** Local working hours per weekday; `[]` is closed. */
export class WorkingHoursDto {
  @day(true) monday!: TimeRange[];
  @day(true) tuesday!: TimeRange[];
  @day(true) wednesday!: TimeRange[];
  @day(true) thursday!: TimeRange[];
  @day(true) friday!: TimeRange[];
  @day(true) saturday!: TimeRange[];
  @day(true) sunday!: TimeRange[];
}

/** A change of working hours: the days named are replaced, the others kept. */
export class WorkingHoursChangeDto {
  @day(false) monday?: TimeRange[];
  @day(false) tuesday?: TimeRange[];
  @day(false) wednesday?: TimeRange[];
  @day(false) thursday?: TimeRange[];
  @day(false) friday?: TimeRange[];
  @day(false) saturday?: TimeRange[];
  @day(false) sunday?: TimeRange[];
}

export class UpdateAppointmentSettingsDto {
  @ApiPropertyOptional({ default: true, description: 'Whether the widget takes bookings' })
  @UnlessOmitted()
  @IsBoolean()
  enabled?: boolean;

  @Minutes(5, 240, 30, 'How long an appointment lasts')
  duration_minutes?: number;

  @Minutes(0, 120, 0, 'Minutes kept free after each appointment')
  buffer_minutes?: number;

  @Minutes(5, 120, 30, 'Minutes between slot starts')
  slot_interval_minutes?: number;

  @Minutes(1, 90, 14, "How many days after today (in the site's zone) can be booked")
  advance_days?: number;

  @Minutes(0, 168, 2, 'No slot starts sooner than this many hours from now')
  min_notice_hours?: number;

  @ApiPropertyOptional({
    type: WorkingHoursChangeDto,
    description:
      'Local hours per weekday; the days named replace the stored ones, the others are kept. Ranges must not overlap; [] closes the day.',
    example: { saturday: [{ start: '10:00', end: '14:00' }], sunday: [] },
  })
  @UnlessOmitted()
  @IsWorkingHours()
  working_hours?: Partial<Record<Weekday, TimeRange[]>>;
}

export class AppointmentSettingsDto {
  @ApiProperty({ description: 'The site these settings are for' }) site_id!: number;
  @ApiProperty({ example: true }) enabled!: boolean;
  @ApiProperty({ example: 30, minimum: 5, maximum: 240 }) duration_minutes!: number;
  @ApiProperty({ example: 0, minimum: 0, maximum: 120 }) buffer_minutes!: number;
  @ApiProperty({ example: 30, minimum: 5, maximum: 120 }) slot_interval_minutes!: number;
  @ApiProperty({ example: 14, minimum: 1, maximum: 90 }) advance_days!: number;
  @ApiProperty({ example: 2, minimum: 0, maximum: 168 }) min_notice_hours!: number;
  @ApiProperty({ type: WorkingHoursDto }) working_hours!: WorkingHoursDto;
}

export class AppointmentSettingsResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AppointmentSettingsDto }) settings!: AppointmentSettingsDto;
  @ApiProperty({ example: 'Europe/Berlin', description: "The site's IANA time zone" })
  timezone!: string;
}

export function toSettingsResponse({ site, settings }: SiteSettings) {
  return {
    settings: {
      site_id: Number(site.id),
      enabled: settings.enabled,
      duration_minutes: settings.duration_minutes,
      buffer_minutes: settings.buffer_minutes,
      slot_interval_minutes: settings.slot_interval_minutes,
      advance_days: settings.advance_days,
      min_notice_hours: settings.min_notice_hours,
      working_hours: completeWorkingHours(settings.working_hours),
    },
    timezone: site.timezone,
  };
}
