import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DateTime } from 'luxon';
import { AppConfig } from '../../config/app-config';
import { AgentsService } from '../agents/agents.service';
import type { AppointmentForMail } from '../appointments/appointments.repository';
import { AppointmentsService } from '../appointments/appointments.service';
import { MailService } from '../mail/mail.service';
import { mailLanguage } from '../mail/mail-strings';
import { OutboxService } from '../outbox/outbox.service';
import { appointmentInvite } from './appointment-invite';

/** At most this many owners get the invite of an appointment nobody is assigned to. */
const MAX_OWNERS = 20;

/**
 * Appointments by email (DESIGN section 9): a booking mails the visitor a confirmation with an
 * `.ics` invite (`METHOD:REQUEST`), a cancellation mails `METHOD:CANCEL` with the same UID, and a
 * cancelled appointment brought back is invited again. The conversation's assignee, else the
 * organization's owners, get the same invite.
 */
@Injectable()
export class AppointmentMailService implements OnModuleInit {
  private readonly logger = new Logger('appointment-mail');

  constructor(
    private readonly appointments: AppointmentsService,
    private readonly agents: AgentsService,
    private readonly mail: MailService,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('appointment.booked', 'AppointmentMailService', async (event) => {
      await this.mailAbout(String(event.organizationId), String(event.payload.appointment_id));
    });
    this.outbox.subscribe('appointment.status_changed', 'AppointmentMailService', async (event) => {
      const { from, to } = event.payload;
      // A cancellation, or a cancelled appointment brought back; other changes mail nobody.
      if (to !== 'cancelled' && from !== 'cancelled') return;
      await this.mailAbout(String(event.organizationId), String(event.payload.appointment_id));
    });
  }

  /** Mails the appointment as it is now: an invite, or its cancellation. */
  private async mailAbout(organizationId: string, appointmentId: string): Promise<void> {
    const appointment = await this.appointments.forMail(organizationId, appointmentId);
    if (!appointment) return;
    const cancelled = appointment.status === 'cancelled';
    const visitorEmail = appointment.visitor_email ?? appointment.visitor_address;
    const visitorName = appointment.visitor_name ?? appointment.visitor_display_name;
    const calendar = appointmentInvite(
      {
        uid: `appointment-${appointment.id}@${this.config.mailReplyDomain}`,
        sequence: appointment.revision,
        start: appointment.scheduled_at,
        end: appointment.ends_at,
        timezone: appointment.timezone,
        summary: visitorName ? `${appointment.site_name}: ${visitorName}` : appointment.site_name,
        description: appointment.button_label,
        organizer: { name: appointment.site_name, email: this.config.env.MAIL_FROM },
        attendee: { name: visitorName, email: visitorEmail ?? this.config.env.MAIL_FROM },
      },
      cancelled,
    );
    const kind = cancelled ? 'appointment_cancellation' : 'appointment_confirmation';
    const mailed: string[] = [];
    if (visitorEmail) {
      await this.mail.send(organizationId, {
        template: {
          kind,
          name: visitorName,
          with: appointment.site_name,
          when: whenIn(appointment, appointment.language),
        },
        to: visitorEmail,
        toName: visitorName,
        siteId: appointment.site_id,
        language: appointment.language,
        calendar,
      });
      mailed.push('visitor');
    }
    for (const agent of await this.team(organizationId, appointment)) {
      await this.mail.send(organizationId, {
        template: {
          kind,
          name: agent.name,
          with: visitorName ?? visitorEmail ?? appointment.site_name,
          when: whenIn(appointment, null),
        },
        to: agent.email,
        toName: agent.name,
        siteId: appointment.site_id,
        calendar,
      });
      mailed.push(`agent ${agent.id}`);
    }
    this.logger.log({ msg: `appointment ${kind} mailed`, appointmentId, to: mailed });
  }

  /** Who looks after the appointment: the conversation's assignee, else the owners. */
  private async team(organizationId: string, appointment: AppointmentForMail) {
    if (appointment.assigned_agent_id) {
      const agent = await this.agents.findMember(organizationId, appointment.assigned_agent_id);
      if (agent) return [agent];
    }
    const owners = await this.agents.page(
      organizationId,
      { role: 'owner', oldestFirst: true },
      { perPage: MAX_OWNERS, offset: 0 },
    );
    return owners.rows;
  }
}

/** "Tuesday, December 1, 2026, 02:30 PM (Europe/Berlin)" in the recipient's language. */
function whenIn(appointment: AppointmentForMail, language: string | null): string {
  const start = DateTime.fromJSDate(appointment.scheduled_at, {
    zone: appointment.timezone,
  }).setLocale(mailLanguage(language));
  const local = start.toLocaleString({
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `${local} (${appointment.timezone})`;
}
