import { ApiProperty } from '@nestjs/swagger';
import type { SiteRow } from './sites.repository';
import { withDefaults } from './widget-settings';

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

export class WidgetConfigDto {
  @ApiProperty({ type: PreChatFormConfigDto }) pre_chat_form!: PreChatFormConfigDto;
  @ApiProperty({ type: VisitorAccountLoginConfigDto })
  visitor_account_login!: VisitorAccountLoginConfigDto;
  @ApiProperty({ type: FilterRecordConfigDto }) filter_record!: FilterRecordConfigDto;
}

/**
 * What the widget needs to render a site (the `widget_config` of the widget API). The record
 * filters come from the site's data-lookup settings; until those exist the list is empty.
 */
export function toWidgetConfig(site: SiteRow): WidgetConfigDto {
  const settings = withDefaults(site.widget_settings);
  return {
    pre_chat_form: settings.pre_chat_form,
    visitor_account_login: settings.visitor_account_login,
    filter_record: {
      enabled: settings.filter_record.enabled,
      button_label: settings.filter_record.button_label,
      filters: [],
      empty_reply: 'No matching records.',
      login_required_reply: 'Please log in first.',
    },
  };
}
