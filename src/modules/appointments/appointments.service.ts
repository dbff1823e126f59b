import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { OutboxService } from '../outbox/outbox.service';
import { appointmentEvents } from './appointment-events';
import { AppointmentSettingsService } from './appointment-settings.service';
import {
  type AppointmentForMail,
  type AppointmentRow,
  type AppointmentStatus,
  AppointmentsRepository,
  isOverlapRefused,
} from './appointments.repository';
import { localDate } from './availability';

export interface AgentListFilter {
  siteId?: string;
  status?: AppointmentStatus;
  /** Local dates (YYYY-MM-DD) in the site's time zone, both included. */
  from?: string;
  to?: string;
}

/** The agents' side: one site's appointments, and their status and notes. */
@Injectable()
export class AppointmentsService {
  constructor(
    private readonly appointments: AppointmentsRepository,
    private readonly settings: AppointmentSettingsService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
  ) {}

  /** A page of one site's appointments in time order, filtered by status and local dates. */
  async page(
    organizationId: string,
    filter: AgentListFilter,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: AppointmentRow[]; total: number; timezone: string }> {
    const site = await this.settings.site(organizationId, filter.siteId);
    if (filter.from !== undefined && filter.to !== undefined && filter.to < filter.from) {
      throw AppError.invalid(
        'to',
        'The to date must be a date after or equal to from.',
        'date_range_invalid',
      );
    }
    const from = filter.from === undefined ? undefined : localDate(filter.from, site.timezone);
    const to = filter.to === undefined ? undefined : localDate(filter.to, site.timezone);
    const { rows, total } = await this.appointments.page(
      organizationId,
      site.id,
      {
        status: filter.status,
        from: from?.toJSDate(),
        before: to?.plus({ days: 1 }).startOf('day').toJSDate(),
      },
      page,
    );
    return { rows, total, timezone: site.timezone };
  }

  /**
   * Sets the status (any of the four, from any other) and optionally the notes. Another
   * organization's appointment is a 404; reviving a cancelled one whose time has been booked
   * since is a 409.
   */
  async update(
    organizationId: string,
    appointmentId: string,
    changes: { status: AppointmentStatus; notes?: string | null },
  ): Promise<AppointmentRow> {
    let updated: AppointmentRow | undefined;
    try {
      updated = await this.dataSource.transaction(async (manager) => {
        const result = await this.appointments.update(
          manager,
          organizationId,
          appointmentId,
          changes,
        );
        if (result && result.previousStatus !== result.appointment.status) {
          await this.outbox.publish(
            manager,
            appointmentEvents.statusChanged(
              organizationId,
              result.appointment,
              result.previousStatus,
            ),
          );
        }
        return result?.appointment;
      });
    } catch (error) {
      if (isOverlapRefused(error)) {
        throw AppError.conflict(
          'Another appointment has been booked at this time since.',
          'slot_taken',
        );
      }
      throw error;
    }
    if (!updated) throw AppError.notFound();
    return updated;
  }

  /** An appointment with what its mails need; undefined when it is gone. */
  forMail(organizationId: string, appointmentId: string): Promise<AppointmentForMail | undefined> {
    return this.appointments.forMail(organizationId, appointmentId);
  }
}
