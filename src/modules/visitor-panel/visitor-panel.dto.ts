import { ApiProperty } from '@nestjs/swagger';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

class CurrentPageDto {
  @ApiProperty({ type: String, nullable: true }) url!: string | null;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
}

class SeenPageDto {
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ format: 'date-time' }) seen_at!: string;
}

class BrowserDto {
  @ApiProperty({ type: String, nullable: true, example: 'Chrome' }) name!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '131.0.0.0' }) version!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'macOS' }) os!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Sonoma' }) os_version!: string | null;
}

class CustomFieldDto {
  @ApiProperty() key!: string;
  @ApiProperty({ description: "The site's label for the field (its key when it has none)" })
  label!: string;
  @ApiProperty() value!: string;
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
  @ApiProperty({
    type: [CustomFieldDto],
    description: "The custom fields by the site's labels, in the site's order",
  })
  custom_field_list!: CustomFieldDto[];
  @ApiProperty({ type: CurrentPageDto, description: 'The page the widget last reported' })
  current_page!: CurrentPageDto;
  @ApiProperty({
    type: [SeenPageDto],
    description: 'The last pages seen, newest first (at most 10)',
  })
  pages_seen!: SeenPageDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Where the visitor came from' })
  referrer!: string | null;
  @ApiProperty({ type: BrowserDto, description: "Parsed from the widget's user agent" })
  browser!: BrowserDto;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Europe/Berlin',
    description: "The visitor's time zone, from the widget",
  })
  timezone!: string | null;
  @ApiProperty({ type: DeviceDto }) device!: DeviceDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_seen_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: AccountLoginDto }) account_login!: AccountLoginDto;
  @ApiProperty({ type: [PanelConversationDto], description: 'Newest first, at most 50' })
  conversations!: PanelConversationDto[];
  @ApiProperty({
    type: [PanelTicketDto],
    description:
      "Newest first, at most 50: the visitor's, and those filed under the visitor's address",
  })
  tickets!: PanelTicketDto[];
  @ApiProperty({ type: [PanelAppointmentDto], description: 'Latest first, at most 50' })
  appointments!: PanelAppointmentDto[];
}

export class VisitorPanelResponseDto extends EnvelopeDto {
  @ApiProperty({ type: VisitorPanelDto }) data!: VisitorPanelDto;
}
