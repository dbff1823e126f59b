import { domainEvent as event } from '../outbox/domain-event';
import type { AppointmentRow } from './appointments.repository';

/** The appointment events (internal: the mails with their invites follow them). */
export const appointmentEvents = {
  booked: (organizationId: string, appointment: AppointmentRow) =>
    event('appointment.booked', organizationId, {
      appointment_id: Number(appointment.id),
      site_id: Number(appointment.site_id),
    }),

  statusChanged: (organizationId: string, appointment: AppointmentRow, from: string) =>
    event('appointment.status_changed', organizationId, {
      appointment_id: Number(appointment.id),
      site_id: Number(appointment.site_id),
      from,
      to: appointment.status,
    }),
};
