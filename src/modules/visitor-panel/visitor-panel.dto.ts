import { ApiProperty } from '@nestjs/swagger';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

class CurrentPageDto {
  @ApiProperty({ type: String, nullable: true }) url!: string | null;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
}

class DeviceDto {
  @ApiProperty({ type: String, nullable: true, example: 'ios' }) platform!: string | null;
  @ApiProperty({ type: String, nullable: true }) app_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) app_version!: string | null;
}

class AccountLoginDto {
  @ApiProperty() logged_in!: boolean;
  @ApiProperty({ type: String, nullable: true }) identifier!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) verified_at!: string | null;
}

class PanelConversationDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ enum: ['waiting', 'active', 'closed', 'missed'] }) status!: string;
  @ApiProperty({ type: Number, nullable: true }) assigned_agent_id!: number | null;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) closed_at!: string | null;
  @ApiProperty({ type: Number, nullable: true, minimum: 1, maximum: 5 }) rating!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The visitor's comment with the rating",
  })
  review_comment!: string | null;
}

class PanelTicketDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'TKT-2026-000001' }) ticket_number!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() status!: string;
  @ApiProperty() priority!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

class PanelAppointmentDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['pending', 'confirmed', 'cancelled', 'completed'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) scheduled_at!: string;
  @ApiProperty({ format: 'date-time' }) ends_at!: string;
  @ApiProperty({ type: String, nullable: true }) notes!: string | null;
}

export class VisitorPanelDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty({ type: String, nullable: true }) phone!: string | null;
  @ApiProperty({ type: String, nullable: true }) country!: string | null;
  @ApiProperty({ type: String, nullable: true }) language!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Answers to the custom pre-chat fields, by field key',
  })
  custom_fields!: Record<string, unknown>;
  @ApiProperty() pre_chat_submitted!: boolean;
  @ApiProperty({ type: CurrentPageDto, description: 'The page the widget last reported' })
  current_page!: CurrentPageDto;
  @ApiProperty({ type: DeviceDto }) device!: DeviceDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: AccountLoginDto }) account_login!: AccountLoginDto;
  @ApiProperty({ type: [PanelConversationDto], description: 'Newest first, at most 50' })
  conversations!: PanelConversationDto[];
  @ApiProperty({ type: [PanelTicketDto], description: 'Newest first, at most 50' })
  tickets!: PanelTicketDto[];
  @ApiProperty({ type: [PanelAppointmentDto], description: 'Latest first, at most 50' })
  appointments!: PanelAppointmentDto[];
}

export class VisitorPanelResponseDto extends EnvelopeDto {
  @ApiProperty({ type: VisitorPanelDto }) data!: VisitorPanelDto;
}
