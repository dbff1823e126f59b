import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

const PRESENCE = ['online', 'away', 'offline'] as const;

export class PresenceDto {
  @ApiProperty({ enum: PRESENCE })
  @IsIn(PRESENCE)
  status!: (typeof PRESENCE)[number];
}

class PresenceStateDto {
  @ApiProperty({ enum: PRESENCE }) status!: string;
  @ApiProperty({ format: 'date-time' }) last_seen_at!: string;
}

export class PresenceResponseDto extends EnvelopeDto {
  @ApiProperty({ type: PresenceStateDto }) data!: PresenceStateDto;
}
