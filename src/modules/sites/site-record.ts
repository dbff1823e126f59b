import type { HelpCenterSettings } from './help-center-settings';
import type { SiteRow } from './sites.repository';
import type { WidgetSettings } from './widget-settings';

/**
 * A site as the other features see it (issue 32, point 7): what `SitesService` answers, mapped
 * once from the table's row here, so no feature but this one depends on `SiteRow`.
 */
export interface SiteRecord {
  id: string;
  organizationId: string;
  name: string;
  domain: string | null;
  timezone: string;
  isActive: boolean;
  allowedDomains: string[];
  widgetKey: string;
  /** As stored; `withDefaults` completes them. */
  widgetSettings: Partial<WidgetSettings>;
  /** Days a closed conversation is kept before the retention job erases it; null: forever. */
  retentionDays: number | null;
  /** As stored; `helpCenterWithDefaults` completes them. */
  helpCenter: Partial<HelpCenterSettings>;
  createdAt: Date;
}

export const toSiteRecord = (row: SiteRow): SiteRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  domain: row.domain,
  timezone: row.timezone,
  isActive: row.is_active,
  allowedDomains: row.allowed_domains,
  widgetKey: row.widget_key,
  widgetSettings: row.widget_settings,
  retentionDays: row.retention_days,
  helpCenter: row.help_center,
  createdAt: row.created_at,
});
