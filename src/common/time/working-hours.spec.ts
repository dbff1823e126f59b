import {
  completeWorkingHours,
  mergeWorkingHours,
  minutesOf,
  workingHoursProblems,
} from './working-hours';

describe('minutesOf', () => {
  it('reads HH:MM, and 24:00 only as an end', () => {
    expect(minutesOf('00:00')).toBe(0);
    expect(minutesOf('23:59')).toBe(1439);
    expect(minutesOf('24:00')).toBeUndefined();
    expect(minutesOf('24:00', { allowMidnightEnd: true })).toBe(1440);
    expect(minutesOf('9:00')).toBeUndefined();
    expect(minutesOf('12:60')).toBeUndefined();
  });
});

describe('workingHoursProblems', () => {
  it('accepts weekdays with sorted or unsorted, touching, or no ranges', () => {
    expect(
      workingHoursProblems({
        monday: [
          { start: '13:00', end: '17:00' },
          { start: '09:00', end: '13:00' },
        ],
        saturday: [],
        sunday: [{ start: '00:00', end: '24:00' }],
      }),
    ).toEqual([]);
  });

  it('names what is wrong, day and range', () => {
    expect(workingHoursProblems([])).toEqual(['working_hours must be an object keyed by weekday.']);
    expect(workingHoursProblems({ funday: [] })).toEqual([
      'working_hours.funday is not a weekday; use monday, tuesday, wednesday, thursday, friday, saturday, sunday.',
    ]);
    expect(workingHoursProblems({ monday: 'closed' })[0]).toMatch(/^working_hours\.monday must be/);
    expect(workingHoursProblems({ monday: [{ start: '9:00', end: '17:00' }] })).toEqual([
      'working_hours.monday.0.start must be a time HH:MM (00:00 to 23:59).',
    ]);
    expect(workingHoursProblems({ monday: [{ start: '10:00', end: '10:00' }] })).toEqual([
      'working_hours.monday.0.end must be after working_hours.monday.0.start.',
    ]);
    expect(workingHoursProblems({ monday: [{ start: '24:00', end: '24:00' }] })).toHaveLength(1);
    expect(
      workingHoursProblems({
        tuesday: [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      }),
    ).toEqual(['working_hours.tuesday.1 overlaps working_hours.tuesday.0.']);
    expect(workingHoursProblems({ friday: [null] })).toEqual([
      'working_hours.friday.0 must be an object with start and end.',
    ]);
    const many = Array.from({ length: 13 }, (_, i) => ({
      start: `${String(i).padStart(2, '0')}:00`,
      end: `${String(i).padStart(2, '0')}:30`,
    }));
    expect(workingHoursProblems({ monday: many })).toEqual([
      'working_hours.monday may have at most 12 ranges.',
    ]);
  });
});

describe('mergeWorkingHours', () => {
  it('replaces the named days, sorted, and keeps the others', () => {
    const current = completeWorkingHours({ monday: [{ start: '09:00', end: '17:00' }] });
    const merged = mergeWorkingHours(current, {
      saturday: [
        { start: '14:00', end: '16:00' },
        { start: '10:00', end: '12:00' },
      ],
    });
    expect(merged.monday).toEqual([{ start: '09:00', end: '17:00' }]);
    expect(merged.saturday).toEqual([
      { start: '10:00', end: '12:00' },
      { start: '14:00', end: '16:00' },
    ]);
    expect(merged.sunday).toEqual([]);
  });
});
