import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { workingHoursProblems } from '../../common/time/working-hours';
import { IsTimeZone } from '../../common/http/validators';
import { PageMetaDto } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { SiteRecord } from './site-record';
import { PRE_CHAT_FIELD_TYPES as FIELD_TYPES, type WidgetSettings } from './widget-settings';
import { BUSINESS_HOURS_SCHEMA, StoredWidgetSettingsDto } from './widget-settings-response.dto';
import {
  HELP_CENTER_LOCALES,
  type HelpCenterLocale,
  helpCenterWithDefaults,
} from './help-center-settings';
import {
  OFFLINE_MODES,
  type OfflineMode,
  REPLY_TIMES,
  type ReplyTime,
  WIDGET_POSITIONS,
  withDefaults,
} from './widget-settings';
import { ContentImportStateDto } from './content-import-state';

const DOMAIN =
  /^(\*\.)?[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?$/i;
const ALLOWED_ENTRY =
  /^(app:[A-Za-z0-9._-]{1,200}|(\*\.)?[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?)$/i;

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

/** Weekday keys with lists of non-overlapping `HH:MM` ranges; the message names each problem. */
const IsBusinessHours = () => (target: object, propertyName: string) =>
  registerDecorator({
    name: 'isBusinessHours',
    target: target.constructor,
    propertyName,
    validator: {
      validate: (value: unknown) => value === null || workingHoursProblems(value).length === 0,
      defaultMessage: (args) =>
        workingHoursProblems(args?.value)
          .map((problem) => `The ${problem.replace(/working_hours/g, 'business_hours')}`)
          .join(' '),
    },
  });

export class WidgetAvailabilityDto {
  @ApiPropertyOptional({
    ...BUSINESS_HOURS_SCHEMA,
    description:
      "Weekly hours in the site's time zone, like appointments' working_hours (`monday` ... `sunday`, each a list of `HH:MM` ranges; a day left out or `[]` is closed). Replaced whole; `null` is always open.",
    example: { monday: [{ start: '09:00', end: '17:00' }], saturday: [] },
  })
  @ValidateIf((_: unknown, value: unknown) => value !== undefined)
  @IsBusinessHours()
  business_hours?: Record<string, { start: string; end: string }[]> | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    description: "Shown while nobody is there; `null` uses the widget's own words",
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  away_message?: string | null;

  @ApiPropertyOptional({
    enum: REPLY_TIMES,
    description: 'How soon the visitor may expect a reply',
  })
  @IsOptional()
  @IsIn(REPLY_TIMES)
  reply_time?: ReplyTime;
}

export class WidgetOfflineDto {
  @ApiPropertyOptional({
    enum: OFFLINE_MODES,
    default: 'chat',
    description:
      'With nobody there: `chat` keeps the message box (the message waits; the widget asks for an email), `ticket_form` shows the leave-a-message form that files a ticket',
  })
  @IsOptional()
  @IsIn(OFFLINE_MODES)
  mode?: OfflineMode;
}

export class WidgetTranscriptsDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Mail the visitor the conversation when it is closed (when its email is known)',
  })
  @IsOptional()
  @IsBoolean()
  on_close?: boolean;
}

export class WidgetConsentDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Ask the visitor to agree before the first message (the agreement is recorded)',
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ example: 'We store this chat to answer you.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  text?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://www.example.com/privacy',
    description: 'The privacy policy the widget links to; `null` for none',
  })
  @IsOptional()
  @IsUrl(
    { protocols: ['https', 'http'], require_protocol: true },
    { message: 'privacy_url must be an http or https URL' },
  )
  @MaxLength(2000)
  privacy_url?: string | null;
}

export class WidgetSettingsDto {
  @ApiPropertyOptional({ type: WidgetConsentDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WidgetConsentDto)
  consent?: WidgetConsentDto;

  @ApiPropertyOptional({ type: WidgetAvailabilityDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WidgetAvailabilityDto)
  availability?: WidgetAvailabilityDto;

  @ApiPropertyOptional({ type: WidgetOfflineDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WidgetOfflineDto)
  offline?: WidgetOfflineDto;

  @ApiPropertyOptional({ type: WidgetTranscriptsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => WidgetTranscriptsDto)
  transcripts?: WidgetTranscriptsDto;

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

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 36500,
    example: 365,
    description:
      'Days a closed conversation is kept; a daily job erases older ones (their messages and files). `null` keeps them forever',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(36500)
  retention_days?: number | null;
}

/** The public help center's settings (DESIGN section 10); a PATCH changes the keys it names. */
export class HelpCenterSettingsInputDto {
  @ApiPropertyOptional({ description: 'Serve the help center at `/help/<widget_key>/`' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 120,
    description: "Its title; `null` uses the site's name",
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  title?: string | null;

  @ApiPropertyOptional({ enum: HELP_CENTER_LOCALES, isArray: true, example: ['en', 'de'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(HELP_CENTER_LOCALES.length)
  @IsIn(HELP_CENTER_LOCALES, { each: true })
  locales?: HelpCenterLocale[];

  @ApiPropertyOptional({ enum: HELP_CENTER_LOCALES, example: 'en' })
  @IsOptional()
  @IsIn(HELP_CENTER_LOCALES)
  default_locale?: HelpCenterLocale;
}

export class UpdateSiteDto extends CreateSiteDto {
  @ApiPropertyOptional({ example: 'Main website' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  declare name: string;

  @ApiPropertyOptional({ type: HelpCenterSettingsInputDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => HelpCenterSettingsInputDto)
  help_center?: HelpCenterSettingsInputDto;
}

export class HelpCenterSettingsDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ enum: HELP_CENTER_LOCALES, isArray: true }) locales!: HelpCenterLocale[];
  @ApiProperty({ enum: HELP_CENTER_LOCALES }) default_locale!: HelpCenterLocale;
  @ApiProperty({
    example: 'https://chat.example.com/help/wk_abc/',
    description: 'The public address (answers only while enabled)',
  })
  url!: string;
}

export class SiteDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) domain!: string | null;
  @ApiProperty({ example: 'UTC' }) timezone!: string;
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ type: [String] }) allowed_domains!: string[];
  @ApiProperty({ description: 'The key the widget uses to identify the site' }) widget_key!: string;
  @ApiProperty({ type: StoredWidgetSettingsDto }) widget_settings!: WidgetSettings;
  @ApiProperty({ type: 'integer', nullable: true }) retention_days!: number | null;
  @ApiProperty({ type: HelpCenterSettingsDto }) help_center!: HelpCenterSettingsDto;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** A site's public help-center address (PUBLIC_URL based). */
export const helpCenterUrl = (publicUrl: string, widgetKey: string): string =>
  `${publicUrl}/help/${encodeURIComponent(widgetKey)}/`;

export function toSiteDto(site: SiteRecord, publicUrl: string): SiteDto {
  return {
    id: Number(site.id),
    name: site.name,
    domain: site.domain,
    timezone: site.timezone,
    is_active: site.isActive,
    allowed_domains: site.allowedDomains,
    widget_key: site.widgetKey,
    widget_settings: withDefaults(site.widgetSettings),
    retention_days: site.retentionDays,
    help_center: {
      ...helpCenterWithDefaults(site.helpCenter),
      url: helpCenterUrl(publicUrl, site.widgetKey),
    },
    created_at: new Date(site.createdAt).toISOString(),
  };
}

/** A site as every member sees it (DESIGN section 12): its name, not its settings. */
export class SiteNameDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() is_active!: boolean;
}

export function toSiteNameDto(site: SiteRecord): SiteNameDto {
  return { id: Number(site.id), name: site.name, is_active: site.isActive };
}

export class SiteDirectoryResponseDto extends PageMetaDto {
  @ApiProperty({ type: [SiteNameDto] }) data!: SiteNameDto[];
}

export class SiteResponseDto extends EnvelopeDto {
  @ApiProperty({ type: SiteDto }) data!: SiteDto;
}

/** One site read on its own: with its content import (DESIGN section 11). */
export class AgentSiteDetailDto extends SiteDto {
  @ApiProperty({ type: ContentImportStateDto }) content_import!: ContentImportStateDto;
}

export class AgentSiteDetailResponseDto extends EnvelopeDto {
  @ApiProperty({ type: AgentSiteDetailDto }) data!: AgentSiteDetailDto;
}

export class SiteListResponseDto extends PageMetaDto {
  @ApiProperty({ type: [SiteDto] }) data!: SiteDto[];
}
