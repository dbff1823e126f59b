import { businessHoursAt } from './business-hours';

const weekdays = { start: '09:00', end: '17:00' };
const office = {
  monday: [weekdays],
  tuesday: [weekdays],
  wednesday: [weekdays],
  thursday: [weekdays],
  friday: [weekdays],
};

describe('businessHoursAt', () => {
  it('is always open without hours', () => {
    expect(businessHoursAt(null, 'UTC', new Date())).toEqual({ within: true, nextOpenAt: null });
  });

  it("reads the hours in the site's zone", () => {
    // Wednesday 2026-03-04 08:30 UTC is 09:30 in Berlin: open; 16:30 UTC is 17:30: closed.
    expect(businessHoursAt(office, 'Europe/Berlin', new Date('2026-03-04T08:30:00Z'))).toEqual({
      within: true,
      nextOpenAt: null,
    });
    expect(businessHoursAt(office, 'Europe/Berlin', new Date('2026-03-04T16:30:00Z'))).toEqual({
      within: false,
      nextOpenAt: new Date('2026-03-05T08:00:00Z'),
    });
    // Friday evening in New York opens on Monday 09:00 there.
    expect(businessHoursAt(office, 'America/New_York', new Date('2026-03-06T23:00:00Z'))).toEqual({
      within: false,
      nextOpenAt: new Date('2026-03-09T13:00:00Z'),
    });
  });

  it('opens later today, handles a midnight end and the daylight-saving change', () => {
    expect(
      businessHoursAt(
        { sunday: [{ start: '20:00', end: '24:00' }] },
        'UTC',
        new Date('2026-03-01T23:59:00Z'),
      ),
    ).toEqual({ within: true, nextOpenAt: null });
    // Berlin moves to summer time on Sunday 2026-03-29: 09:00 is then 07:00 UTC, not 08:00.
    expect(
      businessHoursAt(
        { sunday: [{ start: '09:00', end: '12:00' }] },
        'Europe/Berlin',
        new Date('2026-03-28T12:00:00Z'),
      ),
    ).toEqual({ within: false, nextOpenAt: new Date('2026-03-29T07:00:00Z') });
    // 02:30 does not exist that night: the range opens when the clocks say 03:30.
    expect(
      businessHoursAt(
        { sunday: [{ start: '02:30', end: '05:00' }] },
        'Europe/Berlin',
        new Date('2026-03-28T12:00:00Z'),
      ).nextOpenAt,
    ).toEqual(new Date('2026-03-29T01:30:00Z'));
  });

  it('never opens when every day is closed', () => {
    expect(businessHoursAt({}, 'UTC', new Date())).toEqual({ within: false, nextOpenAt: null });
  });
});
