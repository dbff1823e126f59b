import { Injectable, Logger } from '@nestjs/common';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { AppError } from '../../common/errors/app-error';
import { SitesService } from '../sites/sites.service';
import { withDefaults, type WidgetSettings } from '../sites/widget-settings';
import { toSettings } from './data-lookup-settings.service';
import { DataLookupRepository } from './data-lookup.repository';
import {
  accountByIdentifier,
  accountByKey,
  type OwnerQuery,
  recordSearch,
  type RecordFilters,
  rulePage,
  ruleRow,
} from './lookup-queries';
import type { DataLookupSettings, LookupRule } from './lookup-settings';
import type { Cell } from './table-markup';
import type { Dialect } from './sql-dialect';
import {
  type OwnerDatabase,
  OwnerDatabaseError,
  unavailable,
} from './owner-database/owner-database';
import { OwnerDatabases } from './owner-database/owner-databases';

/** A site whose data lookup is switched on and configured, ready to query its owner database. */
export interface SiteLookup {
  siteId: string;
  settings: DataLookupSettings;
  widget: WidgetSettings;
  database: OwnerDatabase;
  timeZone: string;
}

/** An account row of the owner's account table. */
export interface OwnerAccount {
  key: string;
  email: string | null;
  name: string | null;
}

export type OwnerRecord = Record<string, Cell>;

/**
 * Data lookup at run time: finds accounts and reads records from the site owner's database,
 * always through queries built from the saved (catalog-checked) settings with bound values. A
 * database that cannot be reached, or does not answer within the statement timeout, becomes a
 * 503 `service_unavailable`; a value that cannot be compared with its column matches nothing.
 */
@Injectable()
export class DataLookupService {
  private readonly logger = new Logger('data-lookup');

  constructor(
    private readonly repository: DataLookupRepository,
    private readonly sites: SitesService,
    private readonly secrets: SecretBoxService,
    private readonly owners: OwnerDatabases,
  ) {}

  /** The site's lookup; 403 while data lookup is switched off or not configured. */
  async require(organizationId: string, siteId: string): Promise<SiteLookup> {
    const lookup = await this.find(organizationId, siteId);
    if (!lookup)
      throw AppError.forbidden('Data lookup is not enabled for this site.', 'data_lookup_disabled');
    return lookup;
  }

  /** The site's lookup, or undefined while it is switched off or not configured. */
  async find(organizationId: string, siteId: string): Promise<SiteLookup | undefined> {
    const site = await this.sites.get(organizationId, siteId);
    const widget = withDefaults(site.widgetSettings);
    if (!widget.data_lookup.enabled) return undefined;
    const row = await this.repository.find(organizationId, siteId);
    if (!row) return undefined;
    let url: string | undefined;
    const open = () => (url ??= this.secrets.open(row.url_sealed));
    return {
      siteId,
      // The URL stays sealed here; the pool opens it when it first connects.
      settings: toSettings(site, row, ''),
      widget,
      database: this.owners.forSite(siteId, row.driver, row.url_sealed, open),
      timeZone: site.timezone,
    };
  }

  /** The accounts whose lookup columns hold the identifier (at most two are read). */
  findAccounts(lookup: SiteLookup, identifier: string): Promise<OwnerAccount[]> {
    return this.rows(lookup, (dialect) =>
      accountByIdentifier(dialect, lookup.settings.account, identifier),
    );
  }

  async account(lookup: SiteLookup, key: string): Promise<OwnerAccount | undefined> {
    const rows = await this.rows<OwnerAccount>(lookup, (dialect) =>
      accountByKey(dialect, lookup.settings.account, key),
    );
    return rows[0];
  }

  /** The account's records matching the filters (the search must be configured). */
  search(lookup: SiteLookup, accountKey: string, filters: RecordFilters): Promise<OwnerRecord[]> {
    const record = lookup.settings.filter_record;
    if (!record) throw new Error('record search is not configured');
    return this.rows(lookup, (dialect) => recordSearch(dialect, record, accountKey, filters));
  }

  /** A page (1-based) of a rule's rows for the account, and whether more follow. */
  async page(
    lookup: SiteLookup,
    rule: LookupRule,
    accountKey: string,
    page: number,
  ): Promise<{ rows: OwnerRecord[]; hasMore: boolean }> {
    const rows = await this.rows<OwnerRecord>(lookup, (dialect) =>
      rulePage(dialect, rule, accountKey, page),
    );
    return { rows: rows.slice(0, rule.page_size), hasMore: rows.length > rule.page_size };
  }

  /** The account's row of the rule with this row key, if there is one. */
  async row(
    lookup: SiteLookup,
    rule: LookupRule,
    accountKey: string,
    rowKey: string,
  ): Promise<OwnerRecord | undefined> {
    const rows = await this.rows<OwnerRecord>(lookup, (dialect) =>
      ruleRow(dialect, rule, accountKey, rowKey),
    );
    return rows[0];
  }

  /** The rows of a query written for the site's database. */
  private async rows<T extends object>(
    lookup: SiteLookup,
    build: (dialect: Dialect) => OwnerQuery,
  ): Promise<T[]> {
    const query = build(lookup.database.dialect);
    try {
      return await lookup.database.read((read) => read<T>(query.text, query.values), {
        timeZone: lookup.timeZone,
      });
    } catch (error) {
      if (!(error instanceof OwnerDatabaseError)) throw error;
      if (error.kind === 'value') return [];
      this.logger.warn({
        msg: 'owner database read failed',
        siteId: lookup.siteId,
        kind: error.kind,
        reason: error.reason,
      });
      throw unavailable(error);
    }
  }
}
