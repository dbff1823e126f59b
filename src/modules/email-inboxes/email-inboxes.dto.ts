import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { EmailInboxRow } from './email-inboxes.repository';

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
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
