import { DateTime } from 'luxon';
import { lazyModule } from '../../common/lazy-module';
import type { MailCalendar } from '../mail/mail-content';

const icalGenerator = lazyModule(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  () => require('ical-generator') as typeof import('ical-generator'),
);
const icalTimezones = lazyModule(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  () => require('@touch4it/ical-timezones') as typeof import('@touch4it/ical-timezones'),
);

/** What an invite says of an appointment. */
export interface InviteDetails {
  /** Stable for the appointment: a later change or cancellation replaces the same event. */
  uid: string;
  /** Grows with each change, so calendars take the newer one (RFC 5545 SEQUENCE). */
  sequence: number;
  start: Date;
  end: Date;
  timezone: string;
  summary: string;
  description: string | null;
  organizer: { name: string; email: string };
  attendee: { name: string | null; email: string };
}

/**
 * The iCalendar invite of an appointment (DESIGN section 9): `METHOD:REQUEST` for a booking,
 * `METHOD:CANCEL` with the same UID once cancelled, in the site's time zone (with its
 * VTIMEZONE, so a calendar without the zone database reads it right).
 */
export function appointmentInvite(details: InviteDetails, cancelled: boolean): MailCalendar {
  const { default: ical, ICalCalendarMethod, ICalEventStatus } = icalGenerator();
  const method = cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST;
  const calendar = ical({ prodId: { company: 'support-chat', product: 'appointments' }, method });
  calendar.timezone({ name: details.timezone, generator: icalTimezones().getVtimezoneComponent });
  calendar.createEvent({
    id: details.uid,
    sequence: details.sequence,
    // In the zone: a bare Date would be written as UTC wall time under the zone's TZID.
    start: DateTime.fromJSDate(details.start, { zone: details.timezone }),
    end: DateTime.fromJSDate(details.end, { zone: details.timezone }),
    timezone: details.timezone,
    summary: details.summary,
    description: details.description,
    organizer: details.organizer,
    attendees: [
      { name: details.attendee.name ?? undefined, email: details.attendee.email, rsvp: false },
    ],
    status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return { method: cancelled ? 'CANCEL' : 'REQUEST', content: calendar.toString() };
}
