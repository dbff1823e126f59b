import type { Schemas } from '../../../../shared/api/client';
import { language, t, type MessageKey } from '../../i18n';

export type Availability = Schemas['AvailabilityConfigDto'];

const REPLY: Record<string, MessageKey> = {
  minutes: 'away.reply_minutes',
  hours: 'away.reply_hours',
  day: 'away.reply_day',
};

/**
 * Nobody there (no agent online, or outside the site's hours): the site's away message (else the
 * widget's own words), when it opens again (in the visitor's own clock) and how soon a reply
 * comes. The message box stays below it.
 */
export function AwayNotice({ availability }: { availability: Availability }) {
  const opens = availability.next_open_at ? new Date(availability.next_open_at) : undefined;
  const when = opens
    ? new Intl.DateTimeFormat(language(), {
        weekday: 'long',
        hour: 'numeric',
        minute: '2-digit',
      }).format(opens)
    : '';
  return (
    <section class="away" aria-label={t('header.offline')}>
      <p>{availability.away_message ?? t('away.default')}</p>
      <p class="away-meta">
        {opens && `${t('away.opens', { when })} `}
        {t(REPLY[availability.reply_time] ?? 'away.reply_hours')}
      </p>
    </section>
  );
}
