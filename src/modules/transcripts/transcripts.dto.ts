import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsOptional, MaxLength, Min } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

export class TranscriptRequestDto {
  @ApiPropertyOptional({
    maxLength: 255,
    example: 'ada@example.com',
    description:
      "Where to send it; optional when the visitor's email is known (then that one). Saved on a visitor who had none.",
  })
  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(255)
  email?: string;

  @ApiPropertyOptional({
    description: "One of the visitor's conversations; default the newest one it wrote in",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  conversation_id?: number;
}

export class TranscriptQueuedDto {
  @ApiProperty() conversation_id!: number;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
}

export class TranscriptQueuedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: TranscriptQueuedDto }) data!: TranscriptQueuedDto;
}
