import { SiteCache } from '../../common/invalidation/site-cache';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { randomBase62 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { type AuditActor, AuditLogService, changedFields } from '../audit/audit-log.service';
import type { ContentImportState } from './content-import-state';
import { type SiteChanges, type SiteRow, SitesRepository } from './sites.repository';
import { completeWorkingHours, mergeWorkingHours } from '../../common/time/working-hours';
import { withDefaults, type WidgetSettings } from './widget-settings';
import { type HelpCenterSettings, helpCenterWithDefaults } from './help-center-settings';
import { type SiteRecord, toSiteRecord } from './site-record';

export type { SiteRecord };

/**
 * What another feature may know of an active site to admit a widget call (the auth guard): its
 * ids and the origins it allows (issue 32, point 7).
 */
export interface SiteIdentity {
  id: string;
  organizationId: string;
  allowedDomains: string[];
}

const toSiteIdentity = (site: SiteRecord): SiteIdentity => ({
  id: site.id,
  organizationId: site.organizationId,
  allowedDomains: site.allowedDomains,
});

/** What the audit log keeps of a site (not its widget key). */
const auditedFields = (site: SiteRow) => ({
  name: site.name,
  domain: site.domain,
  timezone: site.timezone,
  is_active: site.is_active,
  allowed_domains: site.allowed_domains,
  widget_settings: site.widget_settings,
  retention_days: site.retention_days,
  help_center: site.help_center,
});

@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SitesRepository,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
    private readonly cache: SiteCache,
  ) {}

  /** A new site with its own unguessable widget key (`wk_` + 32 base62, about 190 bits). */
  /** Inside the caller's transaction when `manager` is given (registration), else on its own. */
  async create(
    manager: EntityManager | undefined,
    organizationId: string,
    input: SiteChanges & { name: string },
    /** Who made it when no request principal says so (the owner signing up). */
    actor?: AuditActor,
  ): Promise<SiteRecord> {
    if (!manager) {
      return this.dataSource.transaction((inner) =>
        this.create(inner, organizationId, input, actor),
      );
    }
    const widgetSettings = input.widget_settings
      ? this.mergeSettings(undefined, input.widget_settings)
      : undefined;
    const site = await this.sites.insert(manager, organizationId, {
      ...input,
      widget_settings: widgetSettings,
      widget_key: `wk_${randomBase62(32)}`,
    });
    await this.audit.record(manager, organizationId, {
      action: 'site.created',
      target: { type: 'site', id: site.id, label: site.name },
      changes: { after: auditedFields(site) },
      fallbackActor: actor,
    });
    return toSiteRecord(site);
  }

  async page(
    organizationId: string,
    filter: { isActive?: boolean; oldestFirst?: boolean },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: SiteRecord[]; total: number }> {
    const { rows, total } = await this.sites.page(organizationId, filter, page);
    return { rows: rows.map(toSiteRecord), total };
  }

  async findActiveByWidgetKey(widgetKey: string): Promise<SiteRecord | undefined> {
    // A key too long to be one is no site's (and not worth a query).
    if (widgetKey.length > 64) return undefined;
    const site = await this.sites.findActiveByWidgetKey(widgetKey);
    return site && toSiteRecord(site);
  }

  /** The identity of the active site of a widget key (a key too long to be one: none). */
  async activeIdentityByWidgetKey(widgetKey: string): Promise<SiteIdentity | undefined> {
    const site = await this.findActiveByWidgetKey(widgetKey);
    return site && toSiteIdentity(site);
  }

  /** The identity of an active site by id (a widget session token names its site). */
  async activeIdentity(organizationId: string, siteId: string): Promise<SiteIdentity | undefined> {
    const site = await this.findActive(organizationId, siteId);
    return site && toSiteIdentity(site);
  }

  /** The site's content import, if one was ever started (DESIGN section 11). */
  contentImport(organizationId: string, siteId: string): Promise<ContentImportState | undefined> {
    return this.sites.contentImport(organizationId, siteId);
  }

  /** An active site by id (a widget session token names its site). */
  async findActive(organizationId: string, siteId: string): Promise<SiteRecord | undefined> {
    const site = await this.sites.findActive(organizationId, siteId);
    return site && toSiteRecord(site);
  }

  async get(organizationId: string, siteId: string): Promise<SiteRecord> {
    const site = await this.sites.find(organizationId, siteId);
    if (!site) throw AppError.notFound();
    return toSiteRecord(site);
  }

  /** Inside the caller's transaction when `manager` is given, else in its own. */
  async update(
    organizationId: string,
    siteId: string,
    changes: SiteChanges,
    manager?: EntityManager,
  ): Promise<SiteRecord> {
    if (!manager) {
      const updated = await this.dataSource.transaction((inner) =>
        this.update(organizationId, siteId, changes, inner),
      );
      // Committed: the public pages kept in memory show the change (a caller's transaction
      // calls `SiteCache.changed` itself once it commits).
      await this.cache.changed(siteId);
      return updated;
    }
    const current = await this.sites.find(organizationId, siteId, manager);
    if (!current) throw AppError.notFound();
    const widgetSettings = changes.widget_settings
      ? this.mergeSettings(current.widget_settings, changes.widget_settings)
      : undefined;
    const helpCenter = changes.help_center
      ? this.mergeHelpCenter(current.help_center, changes.help_center)
      : undefined;
    const updated = await this.sites.update(
      organizationId,
      siteId,
      { ...changes, widget_settings: widgetSettings, help_center: helpCenter },
      manager,
    );
    if (!updated) throw AppError.notFound();
    const changed = changedFields(auditedFields(current), auditedFields(updated));
    if (Object.keys(changed.after).length > 0) {
      await this.audit.record(manager, organizationId, {
        action: 'site.updated',
        target: { type: 'site', id: updated.id, label: updated.name },
        changes: changed,
      });
    }
    return toSiteRecord(updated);
  }

  /**
   * A PATCH of `help_center` changes only the keys it names; the default locale must be one of
   * the locales shown (a 422 naming `help_center.default_locale` otherwise).
   */
  private mergeHelpCenter(
    current: Partial<HelpCenterSettings>,
    patch: Partial<HelpCenterSettings>,
  ): HelpCenterSettings {
    const defined = Object.fromEntries(
      Object.entries(patch).filter(([, value]) => value !== undefined),
    ) as Partial<HelpCenterSettings>;
    const merged = helpCenterWithDefaults({ ...helpCenterWithDefaults(current), ...defined });
    merged.locales = [...new Set(merged.locales)];
    if (!merged.locales.includes(merged.default_locale)) {
      if (patch.default_locale !== undefined || !patch.locales) {
        throw AppError.invalid(
          'help_center.default_locale',
          'The default locale must be one of the help center locales.',
          'help_center_locale_invalid',
        );
      }
      // New locales without the old default: the first of them becomes the default.
      merged.default_locale = merged.locales[0];
    }
    return merged;
  }

  /** A PATCH of widget settings changes only the sections and keys it names. */
  private mergeSettings(
    current: Partial<WidgetSettings> | undefined,
    patch: Partial<WidgetSettings>,
  ): WidgetSettings {
    const base = withDefaults(current);
    const merged = withDefaults({
      pre_chat_form: { ...base.pre_chat_form, ...(patch.pre_chat_form ?? {}) },
      visitor_account_login: {
        ...base.visitor_account_login,
        ...(patch.visitor_account_login ?? {}),
      },
      filter_record: { ...base.filter_record, ...(patch.filter_record ?? {}) },
      data_lookup: { ...base.data_lookup, ...(patch.data_lookup ?? {}) },
      appearance: { ...base.appearance, ...(patch.appearance ?? {}) },
      // business_hours is replaced whole (null: always open); days it leaves out are closed.
      availability: { ...base.availability, ...(patch.availability ?? {}) },
      offline: { ...base.offline, ...(patch.offline ?? {}) },
      transcripts: { ...base.transcripts, ...(patch.transcripts ?? {}) },
      consent: { ...base.consent, ...(patch.consent ?? {}) },
    });
    const hours = merged.availability.business_hours;
    if (hours) {
      merged.availability.business_hours = mergeWorkingHours(completeWorkingHours({}), hours);
    }
    merged.pre_chat_form.fields = merged.pre_chat_form.fields.map((field) => ({
      ...field,
      builtin: ['name', 'email', 'phone'].includes(field.key),
    }));
    const keys = merged.pre_chat_form.fields.map((field) => field.key);
    if (new Set(keys).size !== keys.length) {
      throw AppError.invalid(
        'widget_settings.pre_chat_form.fields',
        'Each pre-chat field key must be unique.',
        'pre_chat_keys_not_unique',
      );
    }
    return merged;
  }
}
