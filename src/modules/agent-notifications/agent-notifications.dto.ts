import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

/** Which notification mails the agent gets; each is on until the agent turns it off. */
export class NotificationPreferencesDto {
  @ApiProperty({ description: 'A visitor starts a conversation while no agent is online' })
  new_conversation!: boolean;
  @ApiProperty({ description: 'A conversation is assigned to me' })
  conversation_assigned!: boolean;
  @ApiProperty({ description: 'A visitor writes in my conversation while I am not online' })
  visitor_reply!: boolean;
  @ApiProperty({
    description: 'A chat is missed (mine, or any unassigned one for owners and admins)',
  })
  missed_chat!: boolean;
  @ApiProperty({ description: 'A ticket is assigned to me' })
  ticket_assigned!: boolean;
  @ApiProperty({ description: 'The customer answers on my ticket' })
  customer_reply!: boolean;
}

/** The kinds to change; the others keep their value. */
export class UpdateNotificationPreferencesDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() new_conversation?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() conversation_assigned?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() visitor_reply?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() missed_chat?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() ticket_assigned?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() customer_reply?: boolean;
}

export class NotificationPreferencesResponseDto extends EnvelopeDto {
  @ApiProperty({ type: NotificationPreferencesDto }) data!: NotificationPreferencesDto;
}
