import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WidgetPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { OrganizationsService } from '../organizations/organizations.service';
import {
  type AppointmentSite,
  AppointmentsRepository,
  type SettingsRow,
} from './appointments.repository';
import type { BookingRules } from './availability';
import {
  completeWorkingHours,
  mergeWorkingHours,
  type TimeRange,
  type Weekday,
} from '../../common/time/working-hours';

/** A settings change; an omitted field keeps its value, and so does a weekday `working_hours` leaves out. */
export interface SettingsInput {
  enabled?: boolean;
  duration_minutes?: number;
  buffer_minutes?: number;
  slot_interval_minutes?: number;
  advance_days?: number;
  min_notice_hours?: number;
  working_hours?: Partial<Record<Weekday, TimeRange[]>>;
}

export interface SiteSettings {
  site: AppointmentSite;
  settings: SettingsRow;
}

export const bookingRules = (settings: SettingsRow): BookingRules => ({
  durationMinutes: settings.duration_minutes,
  bufferMinutes: settings.buffer_minutes,
  slotIntervalMinutes: settings.slot_interval_minutes,
  advanceDays: settings.advance_days,
  minNoticeHours: settings.min_notice_hours,
  workingHours: completeWorkingHours(settings.working_hours),
});

/** Booking rules per site (DESIGN section 7); agent calls name a site or mean the first one. */
@Injectable()
export class AppointmentSettingsService {
  constructor(
    private readonly appointments: AppointmentsRepository,
    private readonly organizations: OrganizationsService,
    private readonly dataSource: DataSource,
  ) {}

  /** The given site of the organization, or its first site; 404 when there is none. */
  async site(organizationId: string, siteId?: string): Promise<AppointmentSite> {
    const site = await this.appointments.site(organizationId, siteId);
    if (!site) throw AppError.notFound();
    return site;
  }

  async get(organizationId: string, siteId?: string): Promise<SiteSettings> {
    const site = await this.site(organizationId, siteId);
    return {
      site,
      settings: await this.appointments.settings(this.dataSource.manager, organizationId, site.id),
    };
  }

  /** Applies a validated change on the locked settings row, so concurrent changes both land. */
  async update(
    organizationId: string,
    siteId: string | undefined,
    input: SettingsInput,
  ): Promise<SiteSettings> {
    const site = await this.site(organizationId, siteId);
    const settings = await this.dataSource.transaction(async (manager) => {
      const current = await this.appointments.settings(manager, organizationId, site.id);
      return this.appointments.updateSettings(manager, organizationId, site.id, {
        enabled: input.enabled,
        duration_minutes: input.duration_minutes,
        buffer_minutes: input.buffer_minutes,
        slot_interval_minutes: input.slot_interval_minutes,
        advance_days: input.advance_days,
        min_notice_hours: input.min_notice_hours,
        working_hours:
          input.working_hours &&
          mergeWorkingHours(completeWorkingHours(current.working_hours), input.working_hours),
      });
    });
    return { site, settings };
  }

  /**
   * The widget site's settings when it takes bookings: the plan must include appointments (403
   * `feature_not_in_plan`) and the site must have them enabled (403 `forbidden`).
   */
  async bookable(widget: WidgetPrincipal): Promise<SiteSettings> {
    await this.organizations.requireFeature(widget.organizationId, 'appointments');
    const found = await this.get(widget.organizationId, widget.siteId);
    if (!found.settings.enabled) {
      throw AppError.forbidden(
        'Appointment booking is disabled for this site.',
        'booking_disabled',
      );
    }
    return found;
  }
}
