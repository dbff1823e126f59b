import {
  type BlockedRange,
  type BookingRules,
  daySlots,
  formatAppointment,
  isoWithOffset,
  localDate,
  occurrences,
} from './availability';
import { completeWorkingHours, type WorkingHours } from '../../common/time/working-hours';

const nineToFive = { start: '09:00', end: '17:00' };
const WEEKDAYS_NINE_TO_FIVE: WorkingHours = completeWorkingHours({
  monday: [nineToFive],
  tuesday: [nineToFive],
  wednesday: [nineToFive],
  thursday: [nineToFive],
  friday: [nineToFive],
});
const ALL_DAY = [{ start: '00:00', end: '24:00' }];

const rules = (overrides: Partial<BookingRules> = {}): BookingRules => ({
  durationMinutes: 30,
  bufferMinutes: 0,
  slotIntervalMinutes: 30,
  advanceDays: 14,
  minNoticeHours: 2,
  workingHours: WEEKDAYS_NINE_TO_FIVE,
  ...overrides,
});

const day = (date: string, zone: string) => {
  const value = localDate(date, zone);
  if (!value) throw new Error(`bad date ${date}`);
  return value;
};

const starts = (slots: ReturnType<typeof daySlots>) => slots.map((s) => isoWithOffset(s.startsAt));

describe('localDate', () => {
  it('takes real YYYY-MM-DD dates only', () => {
    expect(localDate('2027-03-29', 'Europe/Berlin')?.toISO()).toBe('2027-03-29T00:00:00.000+02:00');
    expect(localDate('2027-02-30', 'UTC')).toBeUndefined();
    expect(localDate('2027-3-29', 'UTC')).toBeUndefined();
    expect(localDate('2027-03-29T10:00', 'UTC')).toBeUndefined();
    expect(localDate('', 'UTC')).toBeUndefined();
  });
});

describe('occurrences', () => {
  it('finds none in the spring gap and two in the autumn overlap (Europe/Berlin)', () => {
    expect(occurrences(day('2027-03-28', 'Europe/Berlin'), 150)).toEqual([]);
    const twice = occurrences(day('2027-10-31', 'Europe/Berlin'), 150).map(isoWithOffset);
    expect(twice).toEqual(['2027-10-31T02:30:00+02:00', '2027-10-31T02:30:00+01:00']);
    expect(occurrences(day('2027-03-29', 'Europe/Berlin'), 150).map(isoWithOffset)).toEqual([
      '2027-03-29T02:30:00+02:00',
    ]);
  });
});

describe('daySlots', () => {
  const now = new Date('2027-03-20T08:00:00Z'); // a Saturday

  it('offers every interval of an ordinary weekday inside working hours', () => {
    const slots = daySlots(day('2027-03-22', 'UTC'), rules(), now, []);
    expect(slots).toHaveLength(16);
    expect(isoWithOffset(slots[0].startsAt)).toBe('2027-03-22T09:00:00Z');
    expect(isoWithOffset(slots[0].endsAt)).toBe('2027-03-22T09:30:00Z');
    expect(slots[15].label).toBe('16:30');
    expect(slots.every((s) => s.available && s.status === 'available')).toBe(true);
  });

  it('keeps the offset of the site zone', () => {
    const slots = daySlots(day('2027-03-22', 'America/New_York'), rules(), now, []);
    expect(isoWithOffset(slots[0].startsAt)).toBe('2027-03-22T09:00:00-04:00');
  });

  it('has nothing on a weekend by default', () => {
    expect(daySlots(day('2027-03-21', 'UTC'), rules(), now, [])).toEqual([]);
  });

  it('ends every slot by the end of its range (interval not dividing the day)', () => {
    const slots = daySlots(
      day('2027-03-22', 'UTC'),
      rules({ slotIntervalMinutes: 45, durationMinutes: 60 }),
      now,
      [],
    );
    expect(slots.map((s) => s.label)).toEqual([
      '09:00',
      '09:45',
      '10:30',
      '11:15',
      '12:00',
      '12:45',
      '13:30',
      '14:15',
      '15:00',
      '15:45',
    ]);
  });

  it('serves several ranges a day', () => {
    const workingHours = completeWorkingHours({
      monday: [
        { start: '09:00', end: '10:00' },
        { start: '14:00', end: '15:00' },
      ],
    });
    const slots = daySlots(day('2027-03-22', 'UTC'), rules({ workingHours }), now, []);
    expect(slots.map((s) => s.label)).toEqual(['09:00', '09:30', '14:00', '14:30']);
  });

  it('leaves out what starts within the notice window', () => {
    const monday = new Date('2027-03-22T10:10:00Z');
    const slots = daySlots(day('2027-03-22', 'UTC'), rules({ minNoticeHours: 2 }), monday, []);
    expect(slots[0].label).toBe('12:30');
    expect(
      daySlots(day('2027-03-22', 'UTC'), rules({ minNoticeHours: 0 }), monday, [])[0].label,
    ).toBe('10:30');
    // A whole day inside the window.
    expect(daySlots(day('2027-03-24', 'UTC'), rules({ minNoticeHours: 168 }), monday, [])).toEqual(
      [],
    );
  });

  it('offers the last day of the advance window and nothing after it, nor in the past', () => {
    const advance = rules({ advanceDays: 9, minNoticeHours: 0 });
    expect(daySlots(day('2027-03-29', 'UTC'), advance, now, [])).toHaveLength(16);
    expect(daySlots(day('2027-03-30', 'UTC'), advance, now, [])).toEqual([]);
    expect(daySlots(day('2027-03-19', 'UTC'), advance, now, [])).toEqual([]);
  });

  it('counts the advance window in the site zone', () => {
    // 23:30 UTC on the 20th is already the 21st in Tokyo: the window ends a day later there.
    const late = new Date('2027-03-20T23:30:00Z');
    const advance = rules({ advanceDays: 1, minNoticeHours: 0 });
    expect(daySlots(day('2027-03-22', 'UTC'), advance, late, [])).toEqual([]);
    expect(daySlots(day('2027-03-22', 'Asia/Tokyo'), advance, late, [])).toHaveLength(16);
  });

  it('marks slots overlapping an appointment and its buffer as booked, both ways', () => {
    const blocked: BlockedRange[] = [
      { start: new Date('2027-03-22T10:00:00Z'), end: new Date('2027-03-22T10:45:00Z') },
    ];
    const slots = daySlots(day('2027-03-22', 'UTC'), rules({ bufferMinutes: 15 }), now, blocked);
    const byLabel = Object.fromEntries(slots.map((s) => [s.label, s.status]));
    // 09:30 plus its own buffer reaches 10:15; 10:00 is the appointment; 10:30 is in its buffer.
    expect(byLabel).toMatchObject({
      '09:00': 'available',
      '09:30': 'booked',
      '10:00': 'booked',
      '10:30': 'booked',
      '11:00': 'available',
    });
    expect(slots.find((s) => s.label === '10:00')?.available).toBe(false);
  });

  it('skips the missing hour of the Berlin spring-forward day, which has fewer slots', () => {
    const allDay = completeWorkingHours({ sunday: ALL_DAY });
    const slots = daySlots(
      day('2027-03-28', 'Europe/Berlin'),
      rules({ workingHours: allDay, minNoticeHours: 0 }),
      now,
      [],
    );
    expect(slots).toHaveLength(46);
    const times = starts(slots);
    expect(times.slice(2, 6)).toEqual([
      '2027-03-28T01:00:00+01:00',
      '2027-03-28T01:30:00+01:00',
      '2027-03-28T03:00:00+02:00',
      '2027-03-28T03:30:00+02:00',
    ]);
    expect(times.some((t) => t.startsWith('2027-03-28T02:'))).toBe(false);
    expect(isoWithOffset(slots[3].endsAt)).toBe('2027-03-28T03:00:00+02:00');
  });

  it('keeps the offset of each side of the change in ordinary working hours', () => {
    const workingHours = completeWorkingHours({ sunday: [{ start: '01:00', end: '04:00' }] });
    const slots = daySlots(
      day('2027-03-28', 'Europe/Berlin'),
      rules({ workingHours, minNoticeHours: 0 }),
      now,
      [],
    );
    expect(starts(slots)).toEqual([
      '2027-03-28T01:00:00+01:00',
      '2027-03-28T01:30:00+01:00',
      '2027-03-28T03:00:00+02:00',
      '2027-03-28T03:30:00+02:00',
    ]);
  });

  it('opens at the jump when working hours start in the missing hour', () => {
    const workingHours = completeWorkingHours({ sunday: [{ start: '02:30', end: '04:00' }] });
    const slots = daySlots(
      day('2027-03-28', 'Europe/Berlin'),
      rules({ workingHours, minNoticeHours: 0 }),
      now,
      [],
    );
    expect(starts(slots)).toEqual(['2027-03-28T03:00:00+02:00', '2027-03-28T03:30:00+02:00']);
  });

  it('offers both occurrences of the repeated hour on the autumn day, which has more slots', () => {
    const allDay = completeWorkingHours({ sunday: ALL_DAY });
    const autumn = new Date('2027-10-20T08:00:00Z');
    const slots = daySlots(
      day('2027-10-31', 'Europe/Berlin'),
      rules({ workingHours: allDay, minNoticeHours: 0 }),
      autumn,
      [],
    );
    expect(slots).toHaveLength(50);
    expect(starts(slots).slice(4, 8)).toEqual([
      '2027-10-31T02:00:00+02:00',
      '2027-10-31T02:30:00+02:00',
      '2027-10-31T02:00:00+01:00',
      '2027-10-31T02:30:00+01:00',
    ]);
    expect(slots[4].label).toBe('02:00 (+02:00)');
    expect(slots[6].label).toBe('02:00 (+01:00)');
  });

  it('handles a zone whose clocks skip midnight (America/Santiago, first Sunday of September)', () => {
    const workingHours = completeWorkingHours({ sunday: [{ start: '00:00', end: '02:00' }] });
    const september = new Date('2026-09-01T12:00:00Z');
    const slots = daySlots(
      day('2026-09-06', 'America/Santiago'),
      rules({ workingHours, minNoticeHours: 0 }),
      september,
      [],
    );
    expect(starts(slots)).toEqual(['2026-09-06T01:00:00-03:00', '2026-09-06T01:30:00-03:00']);
  });
});

describe('formatAppointment', () => {
  it('reads as a date and a time range in the zone', () => {
    const [slot] = daySlots(
      day('2027-03-29', 'Europe/Berlin'),
      rules(),
      new Date('2027-03-20'),
      [],
    );
    expect(formatAppointment(slot.startsAt, slot.endsAt)).toBe(
      'Monday, 29 March 2027, 09:00–09:30 (Europe/Berlin)',
    );
  });
});
