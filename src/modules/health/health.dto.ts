import { ApiProperty } from '@nestjs/swagger';
import { EnvelopeDto, HealthChecksDto } from '../../common/openapi/envelope.dto';

export class LiveDto extends EnvelopeDto {}

export class ReadyDto extends EnvelopeDto {
  @ApiProperty({ type: HealthChecksDto })
  checks!: HealthChecksDto;
}

class DatabaseStatusDto {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: string;

  @ApiProperty({ enum: ['embedded', 'external'] })
  mode!: string;
}

class QueueStatusDto {
  @ApiProperty({ enum: ['up', 'down'] })
  status!: string;

  @ApiProperty({ enum: ['postgres', 'redis'] })
  backend!: string;
}

export class StatusDto extends EnvelopeDto {
  @ApiProperty({ example: '0.1.0' })
  version!: string;

  @ApiProperty({ format: 'date-time' })
  started_at!: string;

  @ApiProperty({ example: 42 })
  uptime_seconds!: number;

  @ApiProperty({ type: DatabaseStatusDto })
  database!: DatabaseStatusDto;

  @ApiProperty({ type: QueueStatusDto })
  queue!: QueueStatusDto;
}
