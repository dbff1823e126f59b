import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_REASONS, type ErrorReason } from '../errors/reasons';

/** The envelope fields, for the OpenAPI document. Response DTOs extend it. */
export class EnvelopeDto {
  @ApiProperty({ example: true })
  status!: boolean;

  @ApiProperty({ example: 'OK' })
  message!: string;

  @ApiProperty({ example: '200', description: 'HTTP status code as a string' })
  code!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z', format: 'date-time' })
  datetime!: string;
}

export class ErrorDto extends EnvelopeDto {
  @ApiProperty({ example: false })
  declare status: boolean;

  @ApiProperty({ example: 'not_found', description: 'Machine-readable error slug' })
  error_code!: string;

  @ApiPropertyOptional({
    enum: Object.keys(ERROR_REASONS),
    enumName: 'ErrorReason',
    example: 'conversation_closed',
    description:
      'The domain reason of the error, a slug the apps look up in their catalogs (the `message` stays the English text). For a 422, the slug of the first text of `errors`.',
  })
  error_reason?: ErrorReason;
}

export class ValidationErrorDto extends ErrorDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { body: ['The body field is required.'] },
  })
  errors!: Record<string, string[]>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/ErrorReason' } },
    example: { body: ['required'] },
    description:
      'Each field of `errors` with the slug of each of its texts, in the same order (generic field codes such as `required` or `too_long`, or a domain reason).',
  })
  field_reasons!: Record<string, ErrorReason[]>;
}

export class HealthChecksDto {
  @ApiProperty({ enum: ['up', 'down'] })
  database!: 'up' | 'down';

  @ApiProperty({ enum: ['up', 'down'] })
  queue!: 'up' | 'down';

  @ApiPropertyOptional({
    enum: ['stopping'],
    description: 'Present once the instance received SIGTERM: it is draining and will exit.',
  })
  instance?: 'stopping';
}

export class ReadyErrorDto extends ErrorDto {
  @ApiPropertyOptional({ type: HealthChecksDto })
  checks?: HealthChecksDto;
}
