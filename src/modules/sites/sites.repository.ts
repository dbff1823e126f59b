import { Injectable } from '@nestjs/common';
import { handTyped, pageOf, query, sql, type SqlExecutor } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { HelpCenterSettings } from './help-center-settings';
import type { WidgetSettings } from './widget-settings';
import type { ContentImportState } from './content-import-state';

export interface SiteRow {
  id: string;
  organization_id: string;
  name: string;
  domain: string | null;
  timezone: string;
  is_active: boolean;
  allowed_domains: string[];
  widget_key: string;
  widget_settings: Partial<WidgetSettings>;
  /** Days a closed conversation is kept before the retention job erases it; null: forever. */
  retention_days: number | null;
  /** The public help center's settings as stored (defaults: `helpCenterWithDefaults`). */
  help_center: Partial<HelpCenterSettings>;
  created_at: Date;
}

export interface SiteChanges {
  name?: string;
  domain?: string | null;
  timezone?: string;
  is_active?: boolean;
  allowed_domains?: string[];
  widget_settings?: Partial<WidgetSettings>;
  retention_days?: number | null;
  help_center?: Partial<HelpCenterSettings>;
}

@Injectable()
export class SitesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    organizationId: string,
    site: Required<Pick<SiteChanges, 'name'>> & SiteChanges & { widget_key: string },
  ): Promise<SiteRow> {
    const rows = await sql(
      manager,
      handTyped<SiteRow>`INSERT INTO sites (organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days)
       VALUES ($1, $2, $3, COALESCE($4, 'UTC'), COALESCE($5, true), COALESCE($6, '[]'::jsonb), $7, COALESCE($8, '{}'::jsonb), $9)
       RETURNING id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at`,
      [
        organizationId,
        site.name,
        site.domain ?? null,
        site.timezone ?? null,
        site.is_active ?? null,
        site.allowed_domains ? JSON.stringify(site.allowed_domains) : null,
        site.widget_key,
        site.widget_settings ? JSON.stringify(site.widget_settings) : null,
        site.retention_days ?? null,
      ],
    );
    return rows[0];
  }

  async find(
    organizationId: string,
    siteId: string,
    executor: SqlExecutor = this.dataSource,
  ): Promise<SiteRow | undefined> {
    const rows = await sql(
      executor,
      handTyped<SiteRow>`SELECT id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at FROM sites WHERE organization_id = $1 AND id = $2`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  /** The widget key is the credential of the widget API, so this lookup has no tenant yet. */
  async findActiveByWidgetKey(widgetKey: string): Promise<SiteRow | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<SiteRow>`SELECT id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at FROM sites WHERE widget_key = $1 AND is_active`,
      [widgetKey],
    );
    return rows[0];
  }

  /** The site's content import (written by the content-import feature). */
  async contentImport(
    organizationId: string,
    siteId: string,
  ): Promise<ContentImportState | undefined> {
    const rows = await sql(
      this.dataSource,
      query<ContentImportState>`SELECT site_id, status, progress, progress_label, pages, kb_articles, bot_replies, options,
         error, started_at, finished_at
       FROM content_imports WHERE organization_id = $1 AND site_id = $2`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  async findActive(organizationId: string, siteId: string): Promise<SiteRow | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<SiteRow>`SELECT id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at FROM sites WHERE organization_id = $1 AND id = $2 AND is_active`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  /** Newest first (the public API) unless `oldestFirst` (the settings list the first site first). */
  async page(
    organizationId: string,
    filter: { isActive?: boolean; oldestFirst?: boolean },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: SiteRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: filter.oldestFirst
          ? handTyped<SiteRow>`SELECT id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at
             FROM sites WHERE organization_id = $1 AND ($2::boolean IS NULL OR is_active = $2)
             ORDER BY id LIMIT $3 OFFSET $4`
          : handTyped<SiteRow>`SELECT id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at
             FROM sites WHERE organization_id = $1 AND ($2::boolean IS NULL OR is_active = $2)
             ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total
           FROM sites WHERE organization_id = $1 AND ($2::boolean IS NULL OR is_active = $2)`,
      },
      [organizationId, filter.isActive ?? null],
      page,
    );
  }

  async update(
    organizationId: string,
    siteId: string,
    changes: SiteChanges,
    executor: SqlExecutor = this.dataSource,
  ): Promise<SiteRow | undefined> {
    const rows = await sql(
      executor,
      handTyped<SiteRow>`UPDATE sites SET
         name = COALESCE($3, name),
         domain = CASE WHEN $4::boolean THEN $5 ELSE domain END,
         timezone = COALESCE($6, timezone),
         is_active = COALESCE($7, is_active),
         allowed_domains = COALESCE($8::jsonb, allowed_domains),
         widget_settings = COALESCE($9::jsonb, widget_settings),
         retention_days = CASE WHEN $10::boolean THEN $11 ELSE retention_days END,
         help_center = COALESCE($12::jsonb, help_center),
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at`,
      [
        organizationId,
        siteId,
        changes.name ?? null,
        'domain' in changes,
        changes.domain ?? null,
        changes.timezone ?? null,
        changes.is_active ?? null,
        changes.allowed_domains ? JSON.stringify(changes.allowed_domains) : null,
        changes.widget_settings ? JSON.stringify(changes.widget_settings) : null,
        'retention_days' in changes,
        changes.retention_days ?? null,
        changes.help_center ? JSON.stringify(changes.help_center) : null,
      ],
    );
    return rows[0];
  }
}
