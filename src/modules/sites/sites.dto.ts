import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsTimeZone } from '../../common/http/validators';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { SiteRow } from './sites.repository';
import type { WidgetSettings } from './widget-settings';
import { WIDGET_POSITIONS, withDefaults } from './widget-settings';

const DOMAIN =
  /^(\*\.)?[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?$/i;
const ALLOWED_ENTRY =
  /^(app:[A-Za-z0-9._-]{1,200}|(\*\.)?[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?)$/i;
const FIELD_TYPES = ['text', 'email', 'tel', 'textarea', 'number', 'select', 'checkbox', 'date'];

export class PreChatFieldDto {
  @ApiProperty({ example: 'company' })
  @Matches(/^[a-z][a-z0-9_]{0,63}$/, {
    message: 'key must be lowercase letters, digits and underscores',
  })
  key!: string;

  @ApiProperty({ enum: FIELD_TYPES, example: 'text' })
  @IsIn(FIELD_TYPES)
  type!: string;

  @ApiProperty({ example: 'Company' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  label!: string;

  @ApiProperty()
  @IsBoolean()
  required!: boolean;
}

export class PreChatFormDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() enabled?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: 1440 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1440)
  delay_minutes?: number;

  @ApiPropertyOptional({ type: [PreChatFieldDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => PreChatFieldDto)
  fields?: PreChatFieldDto[];
}

export class VisitorAccountLoginSettingsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() enabled?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() @MaxLength(80) menu_label?: string;
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  logout_label?: string;
}

export class FilterRecordSettingsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() enabled?: boolean;
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(80)
  button_label?: string;
}

export class DataLookupSettingsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() enabled?: boolean;
}

export class WidgetAppearanceDto {
  @ApiPropertyOptional({ example: '#2563eb', description: 'Hex colour, `#rgb` or `#rrggbb`' })
  @IsOptional()
  @Matches(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, {
    message: 'color must be a hex colour such as #2563eb',
  })
  color?: string;

  @ApiPropertyOptional({
    enum: WIDGET_POSITIONS,
    description: 'Side of the page the launcher sits on',
  })
  @IsOptional()
  @IsIn(WIDGET_POSITIONS)
  position?: (typeof WIDGET_POSITIONS)[number];

  @ApiPropertyOptional({ example: 'Hi! How can we help you today?', maxLength: 200 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  greeting?: string;

  @ApiPropertyOptional({ example: 'Chat with us', maxLength: 40 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  launcher_label?: string;
}

export class WidgetSettingsDto {
  @ApiPropertyOptional({ type: WidgetAppearanceDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WidgetAppearanceDto)
  appearance?: WidgetAppearanceDto;

  @ApiPropertyOptional({ type: PreChatFormDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PreChatFormDto)
  pre_chat_form?: PreChatFormDto;

  @ApiPropertyOptional({ type: VisitorAccountLoginSettingsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => VisitorAccountLoginSettingsDto)
  visitor_account_login?: VisitorAccountLoginSettingsDto;

  @ApiPropertyOptional({ type: FilterRecordSettingsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => FilterRecordSettingsDto)
  filter_record?: FilterRecordSettingsDto;

  @ApiPropertyOptional({ type: DataLookupSettingsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => DataLookupSettingsDto)
  data_lookup?: DataLookupSettingsDto;
}

export class CreateSiteDto {
  @ApiProperty({ example: 'Main website' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'www.example.com',
    description: 'The main host name; `null` clears it',
  })
  @IsOptional()
  @Matches(DOMAIN, { message: 'domain must be a host name such as www.example.com' })
  @MaxLength(253)
  domain?: string | null;

  @ApiPropertyOptional({ example: 'Europe/Berlin', default: 'UTC' })
  @IsOptional()
  @IsTimeZone()
  timezone?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({
    type: [String],
    example: ['example.com', '*.example.com', 'app:com.example.shop'],
    description:
      'Hosts allowed to embed the widget (`*.` for subdomains) and mobile apps (`app:<app id>`)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @Matches(ALLOWED_ENTRY, {
    each: true,
    message: 'each allowed_domains entry must be a host name or app:<app id>',
  })
  allowed_domains?: string[];

  @ApiPropertyOptional({ type: WidgetSettingsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WidgetSettingsDto)
  widget_settings?: WidgetSettingsDto;
}

export class UpdateSiteDto extends CreateSiteDto {
  @ApiPropertyOptional({ example: 'Main website' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  declare name: string;
}

export class SiteDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) domain!: string | null;
  @ApiProperty({ example: 'UTC' }) timezone!: string;
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ type: [String] }) allowed_domains!: string[];
  @ApiProperty({ description: 'The key the widget uses to identify the site' }) widget_key!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) widget_settings!: WidgetSettings;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toSiteDto(site: SiteRow): SiteDto {
  return {
    id: Number(site.id),
    name: site.name,
    domain: site.domain,
    timezone: site.timezone,
    is_active: site.is_active,
    allowed_domains: site.allowed_domains,
    widget_key: site.widget_key,
    widget_settings: withDefaults(site.widget_settings),
    created_at: new Date(site.created_at).toISOString(),
  };
}

/** A site as every member sees it (DESIGN section 12): its name, not its settings. */
export class SiteNameDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() is_active!: boolean;
}

export function toSiteNameDto(site: SiteRow): SiteNameDto {
  return { id: Number(site.id), name: site.name, is_active: site.is_active };
}

export class SiteDirectoryResponseDto extends PageMetaDto {
  @ApiProperty({ type: [SiteNameDto] }) data!: SiteNameDto[];
}

export class SiteResponseDto extends EnvelopeDto {
  @ApiProperty({ type: SiteDto }) data!: SiteDto;
}

export class SiteListResponseDto extends PageMetaDto {
  @ApiProperty({ type: [SiteDto] }) data!: SiteDto[];
}
