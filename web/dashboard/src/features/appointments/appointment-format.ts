import type { Schemas } from '../../../../shared/api/client';
import { t, type MessageKey } from '../../i18n';

export type Appointment = Schemas['AgentAppointmentDto'];
export type AppointmentStatus = Appointment['status'];

export const STATUSES: AppointmentStatus[] = ['pending', 'confirmed', 'cancelled', 'completed'];

const STATUS_KEYS: Record<AppointmentStatus, MessageKey> = {
  pending: 'appointments.status.pending',
  confirmed: 'appointments.status.confirmed',
  cancelled: 'appointments.status.cancelled',
  completed: 'appointments.status.completed',
};

export const STATUS_COLOR: Record<AppointmentStatus, string> = {
  pending: 'yellow',
  confirmed: 'teal',
  cancelled: 'gray',
  completed: 'indigo',
};

export const statusLabel = (status: AppointmentStatus) => t(STATUS_KEYS[status]);

/** Who booked: their name, else their address, else "A visitor". */
export const whoOf = (appointment: Appointment) =>
  appointment.visitor_name || appointment.visitor_email || t('appointments.visitor');
