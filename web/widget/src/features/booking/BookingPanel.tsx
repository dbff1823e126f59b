import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, unwrap, type VisitorProfile } from '../../api/client';
import type { Schemas } from '../../../../shared/api/client';
import { Field } from '../../components/Field';
import { frameParams } from '../../frame/host';
import { language, t } from '../../i18n';

type Slot = Schemas['SlotDto'];
/** advance_days is at most 90: today and 90 days after it; the service says where to stop. */
const DAYS_AT_MOST = 91;

/** Days from today (in the visitor's calendar) as YYYY-MM-DD; the service answers in the site zone. */
export function upcomingDays(from: Date, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(from.getFullYear(), from.getMonth(), from.getDate() + i);
    return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  });
}

const WEEKDAY_NAMES = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;

/** The weekday of a YYYY-MM-DD date, by name (as the site's working hours name them). */
export const weekdayOf = (date: string) => WEEKDAY_NAMES[new Date(`${date}T12:00:00`).getDay()];

/** The visitor's own time zone, as the browser knows it. */
const visitorZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Booking: a day (only weekdays with working hours), the day's free slots shown in the visitor's
 * time zone with the site's zone named, name and email, confirmation.
 */
export default function BookingPanel(props: { profile: VisitorProfile; conversationId?: number }) {
  const [lastDate, setLastDate] = useState<string | undefined>();
  const [working, setWorking] = useState<string[] | undefined>();
  const days = upcomingDays(new Date(), DAYS_AT_MOST).filter((d, i) =>
    working === undefined
      ? i === 0
      : lastDate !== undefined && d <= lastDate && working.includes(weekdayOf(d)),
  );
  const [day, setDay] = useState(days[0]);
  const firstDay = days[0];
  // Today may be a day off: once the working weekdays are known, the first open day is chosen.
  useEffect(() => {
    if (working !== undefined && firstDay !== undefined && !days.includes(day)) setDay(firstDay);
  }, [working, firstDay]); // eslint-disable-line react-hooks/exhaustive-deps
  const [slots, setSlots] = useState<Slot[] | undefined>();
  const [zone, setZone] = useState('');
  const [chosen, setChosen] = useState<Slot | undefined>();
  const [name, setName] = useState(props.profile.name);
  const [email, setEmail] = useState(props.profile.email);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    let live = true;
    setSlots(undefined);
    setChosen(undefined);
    unwrap(
      api.POST('/api/widget/appointments/availability', {
        body: { widget_key: frameParams.widgetKey, date: day },
      }),
    )
      .then((answer) => {
        if (!live) return;
        setZone(answer.timezone);
        setLastDate(answer.last_date);
        setWorking(answer.working_weekdays);
        setSlots(answer.slots.filter((slot) => slot.available));
      })
      .catch((failure: unknown) => {
        if (!live) return;
        if (failure instanceof ApiError && failure.status === 403) setUnavailable(true);
        else setError(failure instanceof ApiError ? failure.message : t('error.generic'));
        setSlots([]);
      });
    return () => {
      live = false;
    };
  }, [day]);

  if (unavailable) return <p role="status">{t('booking.unavailable')}</p>;
  if (done) {
    return (
      <p class="notice" role="status">
        {t('booking.confirmed', { when: done })}
      </p>
    );
  }
  const dayLabel = new Intl.DateTimeFormat(language(), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  });
  // In the visitor's own zone; a slot that falls on another day there says which.
  const ownZone = visitorZone();
  const timeLabel = (slot: Slot) => {
    const starts = new Date(slot.starts_at);
    const sameDay = new Intl.DateTimeFormat('en-CA').format(starts) === day;
    return new Intl.DateTimeFormat(language(), {
      ...(sameDay ? {} : { weekday: 'short' }),
      hour: 'numeric',
      minute: '2-digit',
    }).format(starts);
  };

  const book = async (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    setError('');
    try {
      const answer = await unwrap(
        api.POST('/api/widget/appointments/book', {
          body: {
            scheduled_at: chosen.starts_at,
            ...(name.trim() ? { visitor_name: name.trim() } : {}),
            ...(email.trim() ? { visitor_email: email.trim() } : {}),
            ...(props.conversationId ? { conversation_id: props.conversationId } : {}),
          },
        }),
      );
      setDone(answer.appointment.formatted);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 429) {
        setError(t('booking.too_many'));
        return;
      }
      const fields = failure instanceof ApiError ? Object.values(failure.fieldErrors()) : [];
      setError(fields[0] ?? (failure instanceof ApiError ? failure.message : t('error.generic')));
    }
  };

  return (
    <form class="form" onSubmit={(e) => void book(e)}>
      <div class="field">
        <label for="booking-day">{t('booking.day')}</label>
        <select id="booking-day" value={day} onChange={(e) => setDay(e.currentTarget.value)}>
          {days.map((d) => (
            <option key={d} value={d}>
              {dayLabel.format(new Date(`${d}T12:00:00`))}
            </option>
          ))}
        </select>
      </div>
      <fieldset class="slots">
        <legend>{t('booking.slots')}</legend>
        {zone && (
          <p class="zone">
            {zone === ownZone
              ? t('booking.zone', { zone })
              : t('booking.zones', { visitor: ownZone, site: zone })}
          </p>
        )}
        {slots === undefined ? (
          <p role="status">{t('chat.connecting')}</p>
        ) : slots.length === 0 ? (
          <p>{t('booking.no_slots')}</p>
        ) : (
          slots.map((slot) => (
            <label key={slot.starts_at} class={`slot ${chosen === slot ? 'on' : ''}`}>
              <input
                type="radio"
                name="slot"
                checked={chosen === slot}
                onChange={() => setChosen(slot)}
              />
              {timeLabel(slot)}
            </label>
          ))
        )}
      </fieldset>
      {chosen && (
        <>
          <Field
            id="booking-name"
            label={t('booking.name')}
            value={name}
            onInput={setName}
            autoComplete="name"
          />
          <Field
            id="booking-email"
            label={t('booking.email')}
            type="email"
            value={email}
            onInput={setEmail}
            autoComplete="email"
          />
        </>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="primary" disabled={!chosen || (!name.trim() && !email.trim())}>
        {t('booking.submit')}
      </button>
    </form>
  );
}
