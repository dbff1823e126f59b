import { Injectable } from '@nestjs/common';
import { pageOf, sql } from '../../database/sql';
import { DataSource, type EntityManager } from 'typeorm';
import type { WidgetSettings } from './widget-settings';

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
  created_at: Date;
}

export interface SiteChanges {
  name?: string;
  domain?: string | null;
  timezone?: string;
  is_active?: boolean;
  allowed_domains?: string[];
  widget_settings?: Partial<WidgetSettings>;
}

const COLUMNS =
  'id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, created_at';

@Injectable()
export class SitesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    organizationId: string,
    site: Required<Pick<SiteChanges, 'name'>> & SiteChanges & { widget_key: string },
  ): Promise<SiteRow> {
    const rows = await sql<SiteRow>(
      manager,
      `INSERT INTO sites (organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings)
       VALUES ($1, $2, $3, COALESCE($4, 'UTC'), COALESCE($5, true), COALESCE($6, '[]'::jsonb), $7, COALESCE($8, '{}'::jsonb))
       RETURNING ${COLUMNS}`,
      [
        organizationId,
        site.name,
        site.domain ?? null,
        site.timezone ?? null,
        site.is_active ?? null,
        site.allowed_domains ? JSON.stringify(site.allowed_domains) : null,
        site.widget_key,
        site.widget_settings ? JSON.stringify(site.widget_settings) : null,
      ],
    );
    return rows[0];
  }

  async find(organizationId: string, siteId: string): Promise<SiteRow | undefined> {
    const rows = await sql<SiteRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM sites WHERE organization_id = $1 AND id = $2`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  /** The widget key is the credential of the widget API, so this lookup has no tenant yet. */
  async findActiveByWidgetKey(widgetKey: string): Promise<SiteRow | undefined> {
    const rows = await sql<SiteRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM sites WHERE widget_key = $1 AND is_active`,
      [widgetKey],
    );
    return rows[0];
  }

  async findActive(organizationId: string, siteId: string): Promise<SiteRow | undefined> {
    const rows = await sql<SiteRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM sites WHERE organization_id = $1 AND id = $2 AND is_active`,
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
    return pageOf<SiteRow>(
      this.dataSource,
      {
        columns: COLUMNS,
        from: 'sites',
        where: `organization_id = $1 AND ($2::boolean IS NULL OR is_active = $2)`,
        parameters: [organizationId, filter.isActive ?? null],
        orderBy: filter.oldestFirst ? 'id' : 'id DESC',
      },
      page,
    );
  }

  async update(
    organizationId: string,
    siteId: string,
    changes: SiteChanges,
  ): Promise<SiteRow | undefined> {
    const rows = await sql<SiteRow>(
      this.dataSource,
      `UPDATE sites SET
         name = COALESCE($3, name),
         domain = CASE WHEN $4::boolean THEN $5 ELSE domain END,
         timezone = COALESCE($6, timezone),
         is_active = COALESCE($7, is_active),
         allowed_domains = COALESCE($8::jsonb, allowed_domains),
         widget_settings = COALESCE($9::jsonb, widget_settings),
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
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
      ],
    );
    return rows[0];
  }
}
