import { SiteCache } from '../../common/invalidation/site-cache';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AuditLogService } from '../audit/audit-log.service';
import { AppError } from '../../common/errors/app-error';
import { OrganizationsService } from '../organizations/organizations.service';
import { SitesService } from '../sites/sites.service';
import {
  DEFAULT_EMPTY_REPLY,
  DEFAULT_LOGIN_REQUIRED_REPLY,
  type FilterRecordWidgetSettings,
} from '../sites/widget-config.dto';
import { withDefaults, type WidgetSettings } from '../sites/widget-settings';
import { readCatalog } from './catalog';
import type { DataLookupViewDto } from './data-lookup-view.dto';
import type { PutDataLookupDto } from './data-lookup.dto';
import { FILTER_PRESETS } from '../sites/widget-settings';
import { type DataLookupRow, DataLookupRepository } from './data-lookup.repository';
import {
  type DataLookupSettings,
  type Driver,
  type FilterRecordSettings,
  URL_SCHEMES,
} from './lookup-settings';
import {
  failureCategory,
  type OwnerDatabase,
  OwnerDatabaseError,
} from './owner-database/owner-database';
import { OwnerDatabases } from './owner-database/owner-databases';
import { settingsErrors, tablesOf } from './settings-check';

/** The password of a connection URL replaced by `****` (what GET shows). */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return '****';
  }
}

/** What these settings read of a site: its widget settings as stored. */
interface SiteSettings {
  widgetSettings: Partial<WidgetSettings>;
}

/** The widget's copy of the switches, presets and replies (the site's widget settings). */
function widgetSettingsOf(settings: DataLookupSettings): Partial<WidgetSettings> {
  const record = settings.filter_record;
  const filterRecord: FilterRecordWidgetSettings = record
    ? {
        enabled: record.enabled,
        button_label: record.button_label,
        filters: FILTER_PRESETS.filter((preset) => record.filters[preset] !== undefined),
        empty_reply: record.empty_reply,
        login_required_reply: record.login_required_reply,
      }
    : { enabled: false, filters: [] };
  return {
    data_lookup: { enabled: settings.enabled },
    filter_record: filterRecord as WidgetSettings['filter_record'],
  };
}

/** What the audit log keeps of the settings: not the connection URL (it holds a password). */
const auditedSettings = (row: DataLookupRow) => ({
  driver: row.driver,
  account: row.account,
  require_otp: row.require_otp,
  filter_record: row.filter_record,
  rules: row.rules,
});

/** 422 on `connection.url` unless the URL is one of the driver's (`mysql://` or `mariadb://` for `mysql`). */
function requireScheme(driver: Driver, url: string): void {
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme === undefined || !URL_SCHEMES[driver].includes(scheme)) {
    const schemes = URL_SCHEMES[driver].map((name) => `${name}//`).join(' or ');
    throw AppError.invalid(
      'connection.url',
      `The ${driver} driver needs a ${schemes} URL.`,
      'invalid_format',
    );
  }
}

/**
 * A site's data-lookup settings for owners and admins: read (URL masked), saved only once the
 * owner database has every table and column they name, and checked again on demand. The switches
 * the widget shows (`enabled`, the record search's `enabled` and `button_label`) live in the
 * site's widget settings, so PATCH /sites and this PUT change the same values; the widget's copy
 * of the search presets and replies is written there too.
 */
@Injectable()
export class DataLookupSettingsService {
  private readonly logger = new Logger('data-lookup');

  constructor(
    private readonly repository: DataLookupRepository,
    private readonly sites: SitesService,
    private readonly organizations: OrganizationsService,
    private readonly secrets: SecretBoxService,
    private readonly owners: OwnerDatabases,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
    private readonly cache: SiteCache,
  ) {}

  async view(organizationId: string, siteId: string): Promise<DataLookupViewDto> {
    const site = await this.sites.get(organizationId, siteId);
    const row = await this.repository.find(organizationId, siteId);
    if (!row) throw AppError.notFound();
    return this.toView(site, row);
  }

  async save(
    organizationId: string,
    siteId: string,
    input: PutDataLookupDto,
  ): Promise<DataLookupViewDto> {
    await this.organizations.requireFeature(organizationId, 'data_lookup');
    const site = await this.sites.get(organizationId, siteId);
    const current = await this.repository.find(organizationId, siteId);
    const url = this.chooseUrl(input.connection.url, current);
    requireScheme(input.connection.driver, url);
    const settings = fromInput(input, url, site);
    await this.check(settings, (work) => this.owners.once(settings.connection.driver, url, work));

    const { row, updated } = await this.dataSource.transaction(async (manager) => {
      const saved = await this.repository.save(
        organizationId,
        siteId,
        {
          driver: settings.connection.driver,
          url_sealed: this.secrets.seal(url),
          account: settings.account,
          require_otp: settings.require_otp,
          filter_record: stored(settings.filter_record),
          rules: settings.rules,
        },
        manager,
      );
      const site = await this.sites.update(
        organizationId,
        siteId,
        { widget_settings: widgetSettingsOf(settings) },
        manager,
      );
      await this.audit.record(manager, organizationId, {
        action: current ? 'data_lookup.updated' : 'data_lookup.created',
        target: { type: 'site', id: siteId, label: site.name },
        changes: {
          before: current ? auditedSettings(current) : null,
          after: { ...auditedSettings(saved), enabled: settings.enabled },
        },
      });
      return { row: saved, updated: site };
    });
    this.owners.release(siteId);
    await this.cache.changed(siteId);
    return this.toView(updated, row);
  }

  /** Checks the saved settings against the owner database as it is now. */
  async test(organizationId: string, siteId: string) {
    await this.organizations.requireFeature(organizationId, 'data_lookup');
    const site = await this.sites.get(organizationId, siteId);
    const row = await this.repository.find(organizationId, siteId);
    if (!row) throw AppError.notFound();
    const settings = toSettings(site, row, this.secrets.open(row.url_sealed));
    const started = Date.now();
    const serverVersion = await this.check(settings, async (work) =>
      work(this.owners.forSite(siteId, row.driver, row.url_sealed, () => settings.connection.url)),
    );
    return { ok: true, server_version: serverVersion, latency_ms: Date.now() - started };
  }

  /** 422 naming every identifier that is malformed or missing, or the URL that does not connect. */
  private async check(
    settings: DataLookupSettings,
    withDatabase: <T>(work: (database: OwnerDatabase) => Promise<T>) => Promise<T>,
  ): Promise<string> {
    const malformed = settingsErrors(settings);
    if (Object.keys(malformed).length > 0) throw AppError.validation(malformed, 'invalid');
    let result;
    try {
      result = await withDatabase((database) => readCatalog(database, tablesOf(settings)));
    } catch (error) {
      if (!(error instanceof OwnerDatabaseError)) throw error;
      // The driver's text (addresses, ports, file names) is for the log only.
      this.logger.warn({
        msg: 'owner database check failed',
        kind: error.kind,
        reason: error.reason,
      });
      throw AppError.invalid(
        'connection.url',
        `The database could not be read (${failureCategory(error)}).`,
        'owner_database_unreadable',
      );
    }
    const missing = settingsErrors(settings, result.catalog);
    if (Object.keys(missing).length > 0) throw AppError.validation(missing, 'invalid');
    return result.serverVersion;
  }

  /** The URL sent; or the saved one when it is left out or sent back masked. */
  private chooseUrl(sent: string | undefined, current: DataLookupRow | undefined): string {
    const saved = current ? this.secrets.open(current.url_sealed) : undefined;
    if (sent !== undefined && (saved === undefined || sent !== maskUrl(saved))) return sent;
    if (saved !== undefined) return saved;
    throw AppError.invalid('connection.url', 'The url field is required.', 'required');
  }

  private toView(site: SiteSettings, row: DataLookupRow): DataLookupViewDto {
    const settings = toSettings(site, row, this.secrets.open(row.url_sealed));
    return {
      ...settings,
      connection: { driver: settings.connection.driver, url: maskUrl(settings.connection.url) },
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }
}

const stored = (record: FilterRecordSettings | null) => {
  if (!record) return null;
  const { enabled: _enabled, button_label: _label, ...rest } = record;
  return rest;
};

/** The whole settings of a site: the stored row, with the switches of its widget settings. */
export function toSettings(
  site: SiteSettings,
  row: DataLookupRow,
  url: string,
): DataLookupSettings {
  const widget = withDefaults(site.widgetSettings);
  return {
    enabled: widget.data_lookup.enabled,
    connection: { driver: row.driver, url },
    account: row.account,
    require_otp: row.require_otp,
    filter_record: row.filter_record && {
      enabled: widget.filter_record.enabled,
      button_label: widget.filter_record.button_label,
      ...row.filter_record,
    },
    rules: row.rules,
  };
}

function fromInput(input: PutDataLookupDto, url: string, site: SiteSettings): DataLookupSettings {
  const widget = withDefaults(site.widgetSettings);
  const record = input.filter_record;
  const filters = record
    ? Object.fromEntries(
        FILTER_PRESETS.flatMap((preset) =>
          record.filters[preset] === undefined ? [] : [[preset, record.filters[preset]]],
        ),
      )
    : {};
  return {
    enabled: input.enabled,
    connection: { driver: input.connection.driver, url },
    account: {
      table: input.account.table,
      key_column: input.account.key_column,
      lookup_columns: input.account.lookup_columns,
      email_column: input.account.email_column ?? null,
      name_column: input.account.name_column ?? null,
    },
    // On unless turned off explicitly: without a code, an email address is a login (issue 25).
    require_otp: input.require_otp ?? true,
    filter_record: record
      ? {
          enabled: record.enabled ?? true,
          button_label: record.button_label ?? widget.filter_record.button_label,
          table: record.table,
          account_column: record.account_column,
          filters,
          columns: record.columns,
          limit: record.limit ?? 20,
          empty_reply: record.empty_reply ?? DEFAULT_EMPTY_REPLY,
          login_required_reply: record.login_required_reply ?? DEFAULT_LOGIN_REQUIRED_REPLY,
        }
      : null,
    rules: (input.rules ?? []).map((rule) => ({
      id: rule.id,
      label: rule.label,
      keywords: rule.keywords,
      table: rule.table,
      account_column: rule.account_column,
      columns: rule.columns,
      order_by: rule.order_by ?? null,
      direction: rule.direction ?? 'desc',
      page_size: rule.page_size ?? 5,
      row_key: rule.row_key ?? rule.columns[0],
      actions: (rule.actions ?? []).map((action) => ({
        id: action.id,
        label: action.label,
        reply: action.reply,
      })),
    })),
  };
}
