import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, sql, type SqlExecutor } from '../../database/sql';
import type { AccountSettings, Driver, FilterRecordSettings, LookupRule } from './lookup-settings';

/** The filter_record settings kept here; `enabled` and `button_label` live in the widget settings. */
export type StoredFilterRecord = Omit<FilterRecordSettings, 'enabled' | 'button_label'>;

export interface DataLookupRow {
  site_id: string;
  organization_id: string;
  driver: Driver;
  url_sealed: string;
  account: AccountSettings;
  require_otp: boolean;
  filter_record: StoredFilterRecord | null;
  rules: LookupRule[];
  updated_at: Date;
}

@Injectable()
export class DataLookupRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(organizationId: string, siteId: string): Promise<DataLookupRow | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<DataLookupRow>`SELECT site_id, organization_id, driver, url_sealed, account, require_otp, filter_record, rules, updated_at FROM data_lookup_settings WHERE organization_id = $1 AND site_id = $2`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  async save(
    organizationId: string,
    siteId: string,
    row: Omit<DataLookupRow, 'site_id' | 'organization_id' | 'updated_at'>,
    executor: SqlExecutor = this.dataSource,
  ): Promise<DataLookupRow> {
    const rows = await sql(
      executor,
      handTyped<DataLookupRow>`INSERT INTO data_lookup_settings
         (site_id, organization_id, driver, url_sealed, account, require_otp, filter_record, rules)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (site_id) DO UPDATE SET
         driver = EXCLUDED.driver, url_sealed = EXCLUDED.url_sealed, account = EXCLUDED.account,
         require_otp = EXCLUDED.require_otp, filter_record = EXCLUDED.filter_record,
         rules = EXCLUDED.rules, updated_at = now()
       WHERE data_lookup_settings.organization_id = $2
       RETURNING site_id, organization_id, driver, url_sealed, account, require_otp, filter_record, rules, updated_at`,
      [
        siteId,
        organizationId,
        row.driver,
        row.url_sealed,
        JSON.stringify(row.account),
        row.require_otp,
        row.filter_record === null ? null : JSON.stringify(row.filter_record),
        JSON.stringify(row.rules),
      ],
    );
    return rows[0];
  }
}
