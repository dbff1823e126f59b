import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
} from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';

const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

export class UpdateSsoSettingsDto {
  @ApiProperty({
    example: 'https://login.example.com',
    maxLength: 2048,
    description:
      'The OpenID Connect issuer (its discovery document is read on saving): https, and a public address unless the host is in SSO_ALLOWED_HOSTS (which also allows http)',
  })
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @MaxLength(2048)
  issuer!: string;

  @ApiProperty({ maxLength: 255, example: 'support-chat' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  client_id!: string;

  @ApiPropertyOptional({
    maxLength: 1000,
    writeOnly: true,
    description: 'Sealed; left out keeps the stored one (required the first time)',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  client_secret?: string;

  @ApiProperty({
    type: [String],
    maxItems: 50,
    example: ['example.com'],
    description:
      'Email domains whose addresses become members on their first sign-in (just-in-time); others must already be members',
  })
  @IsArray()
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsString({ each: true })
  @Matches(DOMAIN, { each: true, message: 'Each allowed domain must be a domain name.' })
  allowed_domains!: string[];

  @ApiProperty({ enum: ['admin', 'agent'], description: 'The role of members created on sign-in' })
  @IsIn(['admin', 'agent'])
  default_role!: 'admin' | 'agent';

  @ApiProperty({
    description: "Refuse members' password login (owners may still use their password)",
  })
  @IsBoolean()
  enforce!: boolean;
}

export class SsoSettingsDto {
  @ApiProperty({
    description:
      'false until single sign-on is set up (the other fields are then null or defaults)',
  })
  configured!: boolean;
  @ApiProperty({ type: String, nullable: true }) issuer!: string | null;
  @ApiProperty({ type: String, nullable: true }) client_id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '********', description: 'Always masked' })
  client_secret!: string | null;
  @ApiProperty({ type: [String] }) allowed_domains!: string[];
  @ApiProperty({ enum: ['admin', 'agent'] }) default_role!: 'admin' | 'agent';
  @ApiProperty() enforce!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updated_at!: string | null;
}

export class SsoSettingsResponseDto extends EnvelopeDto {
  @ApiProperty({ type: SsoSettingsDto }) data!: SsoSettingsDto;
}

export class SsoStartQueryDto {
  @ApiProperty({ description: 'The organization id', example: '12' })
  @IsString()
  @Matches(/^\d{1,18}$/, { message: 'The organization must be an organization id.' })
  organization!: string;
}
