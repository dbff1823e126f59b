import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Min, registerDecorator } from 'class-validator';
import { QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { isLocalDate } from './report-range';

const IsLocalDate = () => (target: object, propertyName: string) =>
  registerDecorator({
    name: 'isLocalDate',
    target: target.constructor,
    propertyName,
    options: { message: `The ${propertyName} date must be a real date in the form YYYY-MM-DD.` },
    validator: { validate: isLocalDate },
  });

/** The rating comments a CSAT report lists. */
export const RATING_COMMENTS_MAX = 50;

export class ReportQueryDto {
  @ApiProperty({ example: '2026-11-01', description: 'First day, in the time zone' })
  @IsLocalDate()
  from!: string;

  @ApiProperty({ example: '2026-11-30', description: 'Last day (included), at most 366 days' })
  @IsLocalDate()
  to!: string;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    description: "Only this site's conversations, in its time zone (else the first site's zone)",
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    description: 'Only chats assigned to this agent',
  })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  agent_id?: number;
}

class RangeDto {
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-30' }) to!: string;
}

class DayDto {
  @ApiProperty({ example: '2026-11-01' }) date!: string;
  @ApiProperty() conversations!: number;
  @ApiProperty({ description: 'Chats that became missed' }) missed!: number;
}

class VolumeDto {
  @ApiProperty() conversations!: number;
  @ApiProperty() missed!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'missed / conversations, 0 to 1' })
  missed_rate!: number | null;
}

class GroupVolumeDto extends VolumeDto {
  @ApiProperty({ type: Number, nullable: true, description: 'null: unassigned' }) id!:
    number | null;
}

class ConversationsReportDto extends RangeDto {
  @ApiProperty({ type: VolumeDto }) totals!: VolumeDto;
  @ApiProperty({ type: [DayDto], description: 'Every day of the range, oldest first' })
  days!: DayDto[];
  @ApiProperty({ type: [GroupVolumeDto] }) per_agent!: GroupVolumeDto[];
  @ApiProperty({ type: [GroupVolumeDto] }) per_site!: GroupVolumeDto[];
}

export class ConversationsReportResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ConversationsReportDto }) data!: ConversationsReportDto;
}

class DurationDto {
  @ApiProperty({ description: 'Conversations measured' }) count!: number;
  @ApiProperty({ type: Number, nullable: true }) median_seconds!: number | null;
  @ApiProperty({ type: Number, nullable: true }) p90_seconds!: number | null;
}

class TimesDto {
  @ApiProperty({ type: DurationDto, description: 'Start to the first agent reply' })
  first_response!: DurationDto;
  @ApiProperty({ type: DurationDto, description: 'Start to closing' }) resolution!: DurationDto;
}

class GroupTimesDto extends TimesDto {
  @ApiProperty({ type: Number, nullable: true, description: 'null: unassigned' }) id!:
    number | null;
}

class ResponseTimesReportDto extends RangeDto {
  @ApiProperty({ type: TimesDto }) totals!: TimesDto;
  @ApiProperty({ type: [GroupTimesDto] }) per_agent!: GroupTimesDto[];
  @ApiProperty({ type: [GroupTimesDto] }) per_site!: GroupTimesDto[];
}

export class ResponseTimesReportResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ResponseTimesReportDto }) data!: ResponseTimesReportDto;
}

class DistributionDto {
  @ApiProperty({ name: '1' }) '1'!: number;
  @ApiProperty({ name: '2' }) '2'!: number;
  @ApiProperty({ name: '3' }) '3'!: number;
  @ApiProperty({ name: '4' }) '4'!: number;
  @ApiProperty({ name: '5' }) '5'!: number;
}

class CsatDto {
  @ApiProperty({ description: 'Rated conversations' }) count!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Average rating, 1 to 5' })
  average!: number | null;
  @ApiProperty({ type: DistributionDto }) distribution!: DistributionDto;
}

class GroupCsatDto extends CsatDto {
  @ApiProperty({ type: Number, nullable: true, description: 'null: unassigned' }) id!:
    number | null;
}

class RatingCommentDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ minimum: 1, maximum: 5 }) rating!: number;
  @ApiProperty({ example: 'Quick and friendly, thank you!' }) comment!: string;
  @ApiProperty({ type: String, format: 'date-time' }) reviewed_at!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'The assignee' })
  agent_id!: number | null;
  @ApiProperty() site_id!: number;
}

class CsatReportDto extends RangeDto {
  @ApiProperty({ type: CsatDto }) totals!: CsatDto;
  @ApiProperty({ type: [GroupCsatDto] }) per_agent!: GroupCsatDto[];
  @ApiProperty({ type: [GroupCsatDto] }) per_site!: GroupCsatDto[];
  @ApiProperty({
    type: [RatingCommentDto],
    description: `The latest comments visitors left with their rating (at most ${RATING_COMMENTS_MAX}), newest first`,
  })
  comments!: RatingCommentDto[];
}

export class CsatReportResponseDto extends EnvelopeDto {
  @ApiProperty({ type: CsatReportDto }) data!: CsatReportDto;
}
