import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  FILTER_PRESETS,
  type FilterPreset,
  OFFLINE_MODES,
  type OfflineMode,
  PRE_CHAT_FIELD_TYPES,
  REPLY_TIMES,
  type ReplyTime,
  WIDGET_POSITIONS,
} from './widget-settings';

/*
 * A site's widget settings as the agent API answers them: every section, every key, the stored
 * values over the defaults (`withDefaults`). The request's `WidgetSettingsDto` is the same shape
 * with everything optional (a patch names what it changes); this one is what the dashboard reads
 * (issue 32 point 1: its types come from the OpenAPI document, not a copy of its own).
 */

/** Weekly hours by weekday, each a list of `HH:MM` ranges; `null` is always open. */
export const BUSINESS_HOURS_SCHEMA = {
  type: 'object' as const,
  nullable: true,
  additionalProperties: {
    type: 'array',
    items: {
      type: 'object',
      properties: { start: { type: 'string' }, end: { type: 'string' } },
      required: ['start', 'end'],
    },
  },
};

class StoredPreChatFieldDto {
  @ApiProperty({ example: 'company' }) key!: string;
  @ApiProperty({ enum: PRE_CHAT_FIELD_TYPES }) type!: (typeof PRE_CHAT_FIELD_TYPES)[number];
  @ApiProperty({ example: 'Company' }) label!: string;
  @ApiProperty() required!: boolean;
  @ApiPropertyOptional({ description: 'One of the built-in fields (name, email)' })
  builtin?: boolean;
}

class StoredPreChatFormDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ minimum: 0, maximum: 1440 }) delay_minutes!: number;
  @ApiProperty({ type: [StoredPreChatFieldDto] }) fields!: StoredPreChatFieldDto[];
}

class StoredVisitorAccountLoginDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() menu_label!: string;
  @ApiProperty() logout_label!: string;
}

class StoredFilterRecordDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() button_label!: string;
  // The widget's copy of the record search the data-lookup settings configure (set there).
  @ApiPropertyOptional({ enum: FILTER_PRESETS, isArray: true }) filters?: FilterPreset[];
  @ApiPropertyOptional() empty_reply?: string;
  @ApiPropertyOptional() login_required_reply?: string;
}

class StoredDataLookupDto {
  @ApiProperty() enabled!: boolean;
}

class StoredAppearanceDto {
  @ApiProperty({ example: '#2563eb' }) color!: string;
  @ApiProperty({ enum: WIDGET_POSITIONS }) position!: (typeof WIDGET_POSITIONS)[number];
  @ApiProperty() greeting!: string;
  @ApiProperty() launcher_label!: string;
}

class StoredAvailabilityDto {
  @ApiProperty({
    ...BUSINESS_HOURS_SCHEMA,
    description: "Weekly hours in the site's time zone; `null` is always open",
  })
  business_hours!: Record<string, { start: string; end: string }[]> | null;
  @ApiProperty({ type: String, nullable: true }) away_message!: string | null;
  @ApiProperty({ enum: REPLY_TIMES }) reply_time!: ReplyTime;
}

class StoredOfflineDto {
  @ApiProperty({ enum: OFFLINE_MODES }) mode!: OfflineMode;
}

class StoredTranscriptsDto {
  @ApiProperty() on_close!: boolean;
}

class StoredConsentDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() text!: string;
  @ApiProperty({ type: String, nullable: true }) privacy_url!: string | null;
}

export class StoredWidgetSettingsDto {
  @ApiProperty({ type: StoredPreChatFormDto }) pre_chat_form!: StoredPreChatFormDto;
  @ApiProperty({ type: StoredVisitorAccountLoginDto })
  visitor_account_login!: StoredVisitorAccountLoginDto;
  @ApiProperty({ type: StoredFilterRecordDto }) filter_record!: StoredFilterRecordDto;
  @ApiProperty({ type: StoredDataLookupDto }) data_lookup!: StoredDataLookupDto;
  @ApiProperty({ type: StoredAppearanceDto }) appearance!: StoredAppearanceDto;
  @ApiProperty({ type: StoredAvailabilityDto }) availability!: StoredAvailabilityDto;
  @ApiProperty({ type: StoredOfflineDto }) offline!: StoredOfflineDto;
  @ApiProperty({ type: StoredTranscriptsDto }) transcripts!: StoredTranscriptsDto;
  @ApiProperty({ type: StoredConsentDto }) consent!: StoredConsentDto;
}
