import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { AnswerBotSettingsRow, AnswerLogRow } from './answer-bot.repository';

export class AnswerBotSettingsDto {
  @ApiProperty({ description: 'Off until an owner or admin turns it on', default: false })
  @IsBoolean()
  enabled!: boolean;

  @ApiProperty({
    minimum: 0,
    maximum: 1,
    default: 0.3,
    description: 'How close a reply or article must be to answer (0 to 1; higher is stricter)',
  })
  @IsNumber({ maxDecimalPlaces: 3 })
  @Min(0)
  @Max(1)
  min_score!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: 1000,
    description:
      'What the bot says when it hands over to the team (null: a sentence in the visitor’s language)',
  })
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(1000)
  handoff_message!: string | null;

  @ApiProperty({
    minimum: 1,
    maximum: 20,
    default: 3,
    description: 'Answers per conversation; the next message goes to the team',
  })
  @IsInt()
  @Min(1)
  @Max(20)
  max_answers!: number;

  @ApiPropertyOptional({
    default: false,
    description:
      'Compose answers from the retrieved passages with the language model (needs LLM_BASE_URL and LLM_MODEL on the server)',
  })
  @IsOptional()
  @IsBoolean()
  generative?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    description: 'How generated answers should sound and what they should stress',
  })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(2000)
  guidance?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: 20,
    example: ['pricing negotiations', 'legal advice'],
    description: 'Topics generated answers must not touch (the bot hands over instead)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  forbidden_topics?: string[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 100000,
    default: 200,
    description:
      'Generated answers per site in 24 hours; past it the bot answers only from replies',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100000)
  daily_cap?: number;
}

export class AnswerBotSettingsViewDto extends AnswerBotSettingsDto {
  @ApiProperty() declare generative: boolean;
  @ApiProperty({ type: String, nullable: true, required: true }) declare guidance: string | null;
  @ApiProperty({ type: [String], required: true }) declare forbidden_topics: string[];
  @ApiProperty() declare daily_cap: number;
  @ApiProperty({
    description:
      'Whether the server can generate answers at all (LLM_BASE_URL and LLM_MODEL set); when false, `generative` has no effect',
  })
  generative_available!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updated_at!: string | null;
}

export function toSettingsDto(
  row: AnswerBotSettingsRow,
  generativeAvailable: boolean,
): AnswerBotSettingsViewDto {
  return {
    enabled: row.enabled,
    min_score: Number(row.min_score),
    handoff_message: row.handoff_message,
    max_answers: row.max_answers,
    generative: row.generative,
    guidance: row.guidance,
    forbidden_topics: row.forbidden_topics,
    daily_cap: row.daily_cap,
    generative_available: generativeAvailable,
    updated_at: row.updated_at ? new Date(row.updated_at).toISOString() : null,
  };
}

export class AnswerLogQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1, description: 'Only this site' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;
}

class LoggedPassageDto {
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) url!: string | null;
}

export class AnswerLogEntryDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ description: "The visitor's question" }) question!: string;
  @ApiProperty({ type: [LoggedPassageDto], description: 'The passages the model was given' })
  passages!: LoggedPassageDto[];
  @ApiProperty({ type: String, nullable: true, description: 'What the visitor was sent' })
  answer!: string | null;
  @ApiProperty({
    enum: ['answered', 'handed_off', 'failed', 'timed_out'],
    description:
      'handed_off: the passages did not answer; failed or timed_out: the visitor was handed over at once',
  })
  outcome!: string;
  @ApiProperty() model!: string;
  @ApiProperty() latency_ms!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['helped', 'handoff', null],
    description: "The visitor's button: That helped, or Talk to a person",
  })
  feedback!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toAnswerLogEntry(row: AnswerLogRow): AnswerLogEntryDto {
  return {
    id: Number(row.id),
    site_id: Number(row.site_id),
    conversation_id: Number(row.conversation_id),
    question: row.question,
    passages: row.passages.map((passage) => ({ title: passage.title, url: passage.url })),
    answer: row.answer,
    outcome: row.outcome,
    model: row.model,
    latency_ms: row.latency_ms,
    feedback: row.feedback,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export class AnswerLogListDto extends PageMetaDto {
  @ApiProperty({ type: [AnswerLogEntryDto], description: 'Newest first' })
  data!: AnswerLogEntryDto[];
}

export class AnswerBotSettingsResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AnswerBotSettingsViewDto }) data!: AnswerBotSettingsViewDto;
}

export class AnswerBotReportQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 366, default: 30, description: 'The last days' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(366)
  days?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, description: 'Only this site' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;
}

class UnansweredDto {
  @ApiProperty({ example: 'Do you deliver on Sundays?' }) question!: string;
  @ApiProperty({ description: 'How often it was asked (same words, any case)' }) asked!: number;
}

class AnswerBotReportDto {
  @ApiProperty({ description: 'Visitor messages the bot looked at' }) questions!: number;
  @ApiProperty({ description: 'Of those, answered' }) answered!: number;
  @ApiProperty({ description: 'Conversations closed by "That helped"' }) resolved!: number;
  @ApiProperty({ description: 'Conversations handed to the team' }) handed_off!: number;
  @ApiProperty({
    type: [UnansweredDto],
    description: 'Questions without an answer, most asked first (at most 50): what to write next',
  })
  unanswered!: UnansweredDto[];
}

export class AnswerBotReportResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AnswerBotReportDto }) data!: AnswerBotReportDto;
}

export class BotActionDto {
  @ApiProperty({ description: "One of the visitor's conversations" })
  @IsInt()
  @Min(1)
  conversation_id!: number;
}
