import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString } from 'class-validator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import type { SiteRecord } from './site-record';
import { businessHoursAt } from './business-hours';
import {
  FILTER_PRESETS,
  OFFLINE_MODES,
  REPLY_TIMES,
  type FilterPreset,
  WIDGET_POSITIONS,
  withDefaults,
  type WidgetSettings,
} from './widget-settings';

/** How the widget shows each record search preset. */
const FILTER_FIELDS: Record<FilterPreset, { label: string; type: 'text' | 'date_range' }> = {
  txn: { label: 'Transaction ID', type: 'text' },
  utr: { label: 'UTR', type: 'text' },
  status: { label: 'Status', type: 'text' },
  mobile: { label: 'Mobile', type: 'text' },
  date: { label: 'Date', type: 'date_range' },
};

export const DEFAULT_EMPTY_REPLY = 'No matching records.';
export const DEFAULT_LOGIN_REQUIRED_REPLY = 'Please log in first.';

/**
 * The widget settings' `filter_record` section. Saving a site's data-lookup settings writes the
 * widget's copy of the search there: the presets it maps and its two replies.
 */
export type FilterRecordWidgetSettings = Partial<WidgetSettings['filter_record']> & {
  filters?: string[];
  empty_reply?: string;
  login_required_reply?: string;
};

class PreChatFieldConfigDto {
  @ApiProperty({ example: 'name' }) key!: string;
  @ApiProperty({ example: 'text' }) type!: string;
  @ApiProperty({ example: 'Name' }) label!: string;
  @ApiProperty() required!: boolean;
  @ApiProperty() builtin!: boolean;
}

class PreChatFormConfigDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ example: 0 }) delay_minutes!: number;
  @ApiProperty({ type: [PreChatFieldConfigDto] }) fields!: PreChatFieldConfigDto[];
}

class VisitorAccountLoginConfigDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() menu_label!: string;
  @ApiProperty() logout_label!: string;
}

class FilterConfigDto {
  @ApiProperty({ example: 'txn' }) key!: string;
  @ApiProperty({ example: 'Transaction ID' }) label!: string;
  @ApiProperty({ enum: ['text', 'date_range'] }) type!: string;
}

class FilterRecordConfigDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() button_label!: string;
  @ApiProperty({ type: [FilterConfigDto] }) filters!: FilterConfigDto[];
  @ApiProperty() empty_reply!: string;
  @ApiProperty() login_required_reply!: string;
}

class AppearanceConfigDto {
  @ApiProperty({ example: '#2563eb' }) color!: string;
  @ApiProperty({ enum: WIDGET_POSITIONS }) position!: string;
  @ApiProperty({ example: 'Hi! How can we help you today?' }) greeting!: string;
  @ApiProperty({ example: 'Chat with us' }) launcher_label!: string;
}

class AvailabilityConfigDto {
  @ApiProperty({
    description:
      'An agent is online and the site is within its business hours: a reply may come at once',
  })
  online!: boolean;

  @ApiProperty({ description: 'Within the business hours (always true without hours)' })
  within_business_hours!: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "When the business hours next begin (computed in the site's time zone); null when within them or without hours",
  })
  next_open_at!: string | null;

  @ApiProperty({ enum: REPLY_TIMES, description: 'How soon the visitor may expect a reply' })
  reply_time!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The site's away message; null: the widget says it in its own words",
  })
  away_message!: string | null;
}

class OfflineConfigDto {
  @ApiProperty({
    enum: OFFLINE_MODES,
    description:
      'With nobody there: `chat` keeps the message box, `ticket_form` offers POST /api/widget/offline-messages',
  })
  mode!: string;
}

class ConsentConfigDto {
  @ApiProperty({
    description:
      'Ask before the first message: the visitor agrees with POST /api/widget/consent (a message before that is refused)',
  })
  enabled!: boolean;

  @ApiProperty({ description: 'What the visitor agrees to' }) text!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The privacy policy to link to' })
  privacy_url!: string | null;
}

export class WidgetConfigDto {
  @ApiProperty({ type: PreChatFormConfigDto }) pre_chat_form!: PreChatFormConfigDto;
  @ApiProperty({ type: VisitorAccountLoginConfigDto })
  visitor_account_login!: VisitorAccountLoginConfigDto;
  @ApiProperty({ type: FilterRecordConfigDto }) filter_record!: FilterRecordConfigDto;
  @ApiProperty({ type: AppearanceConfigDto }) appearance!: AppearanceConfigDto;
  @ApiProperty({
    description:
      'Whether an agent of the organization is online now; the `/widget` socket pushes `agents.availability` when it changes. See `availability` for what the widget shows.',
  })
  agents_online!: boolean;

  @ApiProperty({ type: AvailabilityConfigDto }) availability!: AvailabilityConfigDto;
  @ApiProperty({ type: OfflineConfigDto }) offline!: OfflineConfigDto;
  @ApiProperty({ type: ConsentConfigDto }) consent!: ConsentConfigDto;
}

/**
 * What the widget needs to render a site (the `widget_config` of the widget API). The record
 * filters come from the site's data-lookup settings; until those exist the list is empty.
 */
export function toWidgetConfig(
  site: SiteRecord,
  agentsOnline: boolean,
  now = new Date(),
): WidgetConfigDto {
  const settings = withDefaults(site.widgetSettings);
  const hours = businessHoursAt(settings.availability.business_hours, site.timezone, now);
  const record: FilterRecordWidgetSettings = settings.filter_record;
  const presets = FILTER_PRESETS.filter((preset) => record.filters?.includes(preset));
  return {
    pre_chat_form: settings.pre_chat_form,
    visitor_account_login: settings.visitor_account_login,
    filter_record: {
      enabled: settings.filter_record.enabled,
      button_label: settings.filter_record.button_label,
      filters: presets.map((key) => ({ key, ...FILTER_FIELDS[key] })),
      empty_reply: record.empty_reply ?? DEFAULT_EMPTY_REPLY,
      login_required_reply: record.login_required_reply ?? DEFAULT_LOGIN_REQUIRED_REPLY,
    },
    appearance: settings.appearance,
    agents_online: agentsOnline,
    availability: {
      online: agentsOnline && hours.within,
      within_business_hours: hours.within,
      next_open_at: hours.nextOpenAt?.toISOString() ?? null,
      reply_time: settings.availability.reply_time,
      away_message: settings.availability.away_message,
    },
    offline: { mode: settings.offline.mode },
    consent: settings.consent,
  };
}

/** `GET /api/widget/config`'s query. */
export class WidgetKeyQueryDto {
  @ApiProperty({ example: 'wk_0123456789abcdefABCDEF0123456789' })
  @IsString()
  @IsNotEmpty()
  widget_key!: string;
}

export class WidgetConfigResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetConfigDto }) widget_config!: WidgetConfigDto;
}
