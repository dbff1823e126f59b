import { ApiProperty } from '@nestjs/swagger';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

const nullableString = { type: String, nullable: true } as const;
const nullableTime = { type: String, format: 'date-time', nullable: true } as const;

export class ExportedVisitorDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ format: 'uuid' }) visitor_uid!: string;
  @ApiProperty(nullableString) name!: string | null;
  @ApiProperty(nullableString) email!: string | null;
  @ApiProperty(nullableString) phone!: string | null;
  @ApiProperty(nullableString) country!: string | null;
  @ApiProperty(nullableString) language!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  custom_fields!: Record<string, string>;
  @ApiProperty() pre_chat_submitted!: boolean;
  @ApiProperty(nullableString) platform!: string | null;
  @ApiProperty(nullableString) app_id!: string | null;
  @ApiProperty(nullableString) app_version!: string | null;
  @ApiProperty(nullableString) app_build!: string | null;
  @ApiProperty(nullableString) page_url!: string | null;
  @ApiProperty(nullableString) page_title!: string | null;
  @ApiProperty(nullableTime) last_seen_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty(nullableTime) erased_at!: string | null;
}

export class ExportedConsentDto {
  @ApiProperty({ ...nullableTime, description: "When the visitor agreed to the site's text" })
  consented_at!: string | null;
}

export class ExportedAttachmentDto {
  @ApiProperty() id!: number;
  @ApiProperty() file_name!: string;
  @ApiProperty() content_type!: string;
  @ApiProperty() size!: number;
  @ApiProperty({ description: 'The download address' }) url!: string;
}

export class ExportedMessageDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['visitor', 'agent', 'bot', 'system'] }) sender_type!: string;
  @ApiProperty({ type: 'integer', nullable: true }) sender_id!: number | null;
  @ApiProperty() body!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ description: 'A private note of the agents' }) private!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [ExportedAttachmentDto] }) attachments!: ExportedAttachmentDto[];
}

export class ExportedConversationDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty() status!: string;
  @ApiProperty(nullableTime) started_at!: string | null;
  @ApiProperty(nullableTime) closed_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) rating!: number | null;
  @ApiProperty(nullableString) review_comment!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [ExportedMessageDto] }) messages!: ExportedMessageDto[];
}

export class ExportedTicketDto {
  @ApiProperty() id!: number;
  @ApiProperty() ticket_number!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() description!: string;
  @ApiProperty() status!: string;
  @ApiProperty() priority!: string;
  @ApiProperty(nullableString) customer_name!: string | null;
  @ApiProperty(nullableString) customer_email!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ExportedAppointmentDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ format: 'date-time' }) scheduled_at!: string;
  @ApiProperty({ format: 'date-time' }) ends_at!: string;
  @ApiProperty() status!: string;
  @ApiProperty(nullableString) visitor_name!: string | null;
  @ApiProperty(nullableString) visitor_email!: string | null;
  @ApiProperty(nullableString) visitor_phone!: string | null;
  @ApiProperty(nullableString) notes!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class VisitorExportDto {
  @ApiProperty({ format: 'date-time' }) exported_at!: string;
  @ApiProperty({ type: ExportedVisitorDto }) visitor!: ExportedVisitorDto;
  @ApiProperty({ type: ExportedConsentDto }) consent!: ExportedConsentDto;
  @ApiProperty({ type: [ExportedConversationDto] }) conversations!: ExportedConversationDto[];
  @ApiProperty({ type: [ExportedTicketDto] }) tickets!: ExportedTicketDto[];
  @ApiProperty({ type: [ExportedAppointmentDto] }) appointments!: ExportedAppointmentDto[];
}

export class VisitorExportResponseDto extends EnvelopeDto {
  @ApiProperty({ type: VisitorExportDto }) data!: VisitorExportDto;
}

export class VisitorErasedDto {
  @ApiProperty() visitor_id!: number;
  @ApiProperty({ format: 'date-time' }) erased_at!: string;
  @ApiProperty({ description: 'Conversations whose content was erased' }) conversations!: number;
  @ApiProperty() messages!: number;
  @ApiProperty() attachments!: number;
  @ApiProperty({ description: 'Tickets whose customer details were erased' }) tickets!: number;
  @ApiProperty({ description: 'Appointments whose visitor details were erased' })
  appointments!: number;
}

export class VisitorErasedResponseDto extends EnvelopeDto {
  @ApiProperty({ type: VisitorErasedDto }) data!: VisitorErasedDto;
}
