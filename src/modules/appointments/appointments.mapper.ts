import { DateTime } from 'luxon';
import { type AppointmentRow } from './appointments.repository';
import { formatAppointment, isoWithOffset, type Slot } from './availability';
import { AgentAppointmentDto, SlotDto, WidgetAppointmentDto } from './appointments.dto';

/* Appointment rows and slots as the widget and the agents see them, in the site's time zone. */

const numberOrNull = (value: string | null): number | null =>
  value === null ? null : Number(value);

export const toSlotDto = (slot: Slot): SlotDto => ({
  starts_at: isoWithOffset(slot.startsAt),
  ends_at: isoWithOffset(slot.endsAt),
  label: slot.label,
  available: slot.available,
  status: slot.status,
});

export function toWidgetAppointment(row: AppointmentRow, timezone: string): WidgetAppointmentDto {
  const start = DateTime.fromJSDate(row.scheduled_at, { zone: timezone });
  const end = DateTime.fromJSDate(row.ends_at, { zone: timezone });
  return {
    id: Number(row.id),
    status: row.status,
    scheduled_at: isoWithOffset(start),
    ends_at: isoWithOffset(end),
    timezone,
    formatted: formatAppointment(start, end),
    visitor_name: row.visitor_name,
    visitor_email: row.visitor_email,
    visitor_phone: row.visitor_phone,
    conversation_id: numberOrNull(row.conversation_id),
    button_label: row.button_label,
    bot_template_id: numberOrNull(row.bot_template_id),
  };
}

export const toAgentAppointment = (row: AppointmentRow, timezone: string): AgentAppointmentDto => ({
  ...toWidgetAppointment(row, timezone),
  site_id: Number(row.site_id),
  visitor_id: numberOrNull(row.visitor_id),
  notes: row.notes,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});
