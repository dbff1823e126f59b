import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { randomBase62 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { type SiteChanges, type SiteRow, SitesRepository } from './sites.repository';
import { withDefaults, type WidgetSettings } from './widget-settings';

@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SitesRepository,
    private readonly dataSource: DataSource,
  ) {}

  /** A new site with its own unguessable widget key (`wk_` + 32 base62, about 190 bits). */
  /** Inside the caller's transaction when `manager` is given (registration), else on its own. */
  create(
    manager: EntityManager | undefined,
    organizationId: string,
    input: SiteChanges & { name: string },
  ): Promise<SiteRow> {
    const widgetSettings = input.widget_settings
      ? this.mergeSettings(undefined, input.widget_settings)
      : undefined;
    return this.sites.insert(manager ?? this.dataSource.manager, organizationId, {
      ...input,
      widget_settings: widgetSettings,
      widget_key: `wk_${randomBase62(32)}`,
    });
  }

  page(
    organizationId: string,
    filter: { isActive?: boolean; oldestFirst?: boolean },
    page: { perPage: number; offset: number },
  ) {
    return this.sites.page(organizationId, filter, page);
  }

  findActiveByWidgetKey(widgetKey: string): Promise<SiteRow | undefined> {
    return widgetKey.length > 64
      ? Promise.resolve(undefined)
      : this.sites.findActiveByWidgetKey(widgetKey);
  }

  /** An active site by id (a widget session token names its site). */
  findActive(organizationId: string, siteId: string): Promise<SiteRow | undefined> {
    return this.sites.findActive(organizationId, siteId);
  }

  async get(organizationId: string, siteId: string): Promise<SiteRow> {
    const site = await this.sites.find(organizationId, siteId);
    if (!site) throw AppError.notFound();
    return site;
  }

  async update(organizationId: string, siteId: string, changes: SiteChanges): Promise<SiteRow> {
    const current = await this.get(organizationId, siteId);
    const widgetSettings = changes.widget_settings
      ? this.mergeSettings(current.widget_settings, changes.widget_settings)
      : undefined;
    const updated = await this.sites.update(organizationId, siteId, {
      ...changes,
      widget_settings: widgetSettings,
    });
    if (!updated) throw AppError.notFound();
    return updated;
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
    });
    merged.pre_chat_form.fields = merged.pre_chat_form.fields.map((field) => ({
      ...field,
      builtin: ['name', 'email', 'phone'].includes(field.key),
    }));
    const keys = merged.pre_chat_form.fields.map((field) => field.key);
    if (new Set(keys).size !== keys.length) {
      throw AppError.invalid(
        'widget_settings.pre_chat_form.fields',
        'Each pre-chat field key must be unique.',
      );
    }
    return merged;
  }
}
