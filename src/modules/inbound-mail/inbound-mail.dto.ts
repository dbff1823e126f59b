import { ApiProperty } from '@nestjs/swagger';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

export class InboundResultDto {
  @ApiProperty({ description: 'The stored mail’s id' }) id!: number;
  @ApiProperty({
    enum: ['processed', 'duplicate', 'received'],
    description:
      '`processed`: added to its conversation or ticket, or a new ticket; `duplicate`: this Message-ID was taken before; `received`: stored, to be parsed again',
  })
  status!: string;
  @ApiProperty({ type: Number, nullable: true }) conversation_id!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The ticket opened or answered' })
  ticket_id!: number | null;
}

export class InboundResultResponseDto extends EnvelopeDto {
  @ApiProperty({ type: InboundResultDto }) data!: InboundResultDto;
}
