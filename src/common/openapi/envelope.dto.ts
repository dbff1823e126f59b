import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
}

export class ValidationErrorDto extends ErrorDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { body: ['The body field is required.'] },
  })
  errors!: Record<string, string[]>;
}

export class HealthChecksDto {
  @ApiProperty({ enum: ['up', 'down'] })
  database!: 'up' | 'down';

  @ApiProperty({ enum: ['up', 'down'] })
  queue!: 'up' | 'down';
}

export class ReadyErrorDto extends ErrorDto {
  @ApiPropertyOptional({ type: HealthChecksDto })
  checks?: HealthChecksDto;
}
