import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { EmailInboxRow } from './email-inboxes.repository';

/** An inbox's own mailbox, read over IMAP (the third door). */
export class ImapSettingsDto {
  @ApiProperty({ example: 'imap.acme.example', description: 'Host name or IP address' })
  @IsString()
  @Matches(/^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$/, {
    message: 'The host must be a host name or an IP address.',
  })
  @MaxLength(253)
  host!: string;

  @ApiPropertyOptional({ description: 'Default 993 with TLS, 143 without', example: 993 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  port?: number;

  @ApiPropertyOptional({
    default: true,
    description:
      'true: TLS from the start (IMAPS); false: STARTTLS, required unless the operator allows the server (IMAP_ALLOWED_HOSTS)',
  })
  @IsOptional()
  @IsBoolean()
  tls?: boolean;

  @ApiProperty({ example: 'support@acme.example', maxLength: 254 })
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  user!: string;

  @ApiPropertyOptional({
    maxLength: 1024,
    description:
      'Stored sealed and never shown again; required the first time, left out to keep the stored one',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional({ default: 'INBOX', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  folder?: string;
}

export class CreateEmailInboxDto {
  @ApiProperty({ example: 'Support', maxLength: 120 })
  @IsString()
  @MinLength(1)
  @MaxLength(120)
  name!: string;

  @ApiProperty({ example: 'support@acme.example', description: 'The public support address' })
  @IsEmail({ require_tld: false })
  @MaxLength(254)
  address!: string;

  @ApiPropertyOptional({ description: 'The site its tickets are filed under (default: the first)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  site_id?: number;

  @ApiPropertyOptional({
    default: true,
    description: 'Mail the customer an acknowledgement with the ticket number',
  })
  @IsOptional()
  @IsBoolean()
  acknowledge?: boolean;

  @ApiPropertyOptional({
    type: ImapSettingsDto,
    description: 'Read new mail from this mailbox over IMAP (marked seen once taken)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ImapSettingsDto)
  imap?: ImapSettingsDto;
}

export class UpdateEmailInboxDto {
  @ApiPropertyOptional({ maxLength: 120 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(120)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail({ require_tld: false })
  @MaxLength(254)
  address?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(1)
  site_id?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  acknowledge?: boolean;

  @ApiPropertyOptional({
    type: ImapSettingsDto,
    nullable: true,
    description: 'New IMAP settings (the password may be left out to keep it); null stops reading',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ImapSettingsDto)
  imap?: ImapSettingsDto | null;
}

/** The mailbox as the owner sees it: never the password. */
export class ImapDto {
  @ApiProperty() host!: string;
  @ApiProperty() port!: number;
  @ApiProperty() tls!: boolean;
  @ApiProperty() user!: string;
  @ApiProperty() folder!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'connected',
    description:
      'The last outcome of reading it: `connecting`, `connected` or `failed`; null until an instance has tried',
  })
  status!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed, when it did' })
  last_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  checked_at!: string | null;
}

export class EmailInboxDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'support@acme.example' }) address!: string;
  @ApiProperty() site_id!: number;
  @ApiProperty({
    example: 'inbox-abcdefghijklmnopqrstuvwxyz234567@mail.example.com',
    description: 'Forward the support address here (or point its MX at the service)',
  })
  forwarding_address!: string;
  @ApiProperty() acknowledge!: boolean;
  @ApiPropertyOptional({ type: ImapDto, description: 'Present when the inbox reads a mailbox' })
  imap?: ImapDto;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class EmailInboxResponseDto extends EnvelopeDto {
  @ApiProperty({ type: EmailInboxDto }) data!: EmailInboxDto;
}

export class EmailInboxPageDto extends PageMetaDto {
  @ApiProperty({ type: [EmailInboxDto] }) data!: EmailInboxDto[];
}

export function toEmailInboxDto(row: EmailInboxRow, forwardingAddress: string): EmailInboxDto {
  return {
    id: Number(row.id),
    name: row.name,
    address: row.address,
    site_id: Number(row.site_id),
    forwarding_address: forwardingAddress,
    acknowledge: row.acknowledge,
    ...(row.imap_host !== null
      ? {
          imap: {
            host: row.imap_host,
            port: Number(row.imap_port),
            tls: row.imap_tls === true,
            user: row.imap_user ?? '',
            folder: row.imap_folder ?? 'INBOX',
            status: row.imap_status,
            last_error: row.imap_error,
            checked_at: row.imap_checked_at ? new Date(row.imap_checked_at).toISOString() : null,
          },
        }
      : {}),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
