import { DateTime } from 'luxon';
import type { Pool } from 'pg';
import request from 'supertest';
import { createSite, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, startApp } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

interface Session {
  visitor_uid: string;
  visitor_id: number;
  session_token: string;
  conversation_id: number;
}

interface SlotBody {
  starts_at: string;
  ends_at: string;
  label: string;
  available: boolean;
  status: string;
}

const ALL_DAY = [{ start: '00:00', end: '24:00' }];
const EVERY_DAY_ALL_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    ALL_DAY,
  ]),
);
const NINE_TO_FIVE = [{ start: '09:00', end: '17:00' }];

/** A UTC date `days` after today, as YYYY-MM-DD. */
const utcDate = (days: number): string =>
  DateTime.utc().startOf('day').plus({ days }).toISODate() ?? '';

/** The first Monday-to-Friday UTC date at least `minDays` after today. */
const weekdayFrom = (minDays: number): string => {
  let day = DateTime.utc().startOf('day').plus({ days: minDays });
  while (day.weekday > 5) day = day.plus({ days: 1 });
  return day.toISODate() ?? '';
};

/** The first Saturday at least `minDays` after today. */
const saturdayFrom = (minDays: number): string => {
  let day = DateTime.utc().startOf('day').plus({ days: minDays });
  while (day.weekday !== 6) day = day.plus({ days: 1 });
  return day.toISODate() ?? '';
};

describe('appointments: settings, availability, booking and the agent list', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;

  const agent = (who: Registered = org) => ({ Authorization: `Bearer ${who.token}` });

  const init = async (site: { widget_key: string } = org.site): Promise<Session> =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key })
        .expect(200)
    ).body as Session;

  const patchSettings = (who: Registered, body: Record<string, unknown>, query = '') =>
    request(app.url).patch(`/api/agent/appointment-settings${query}`).set(agent(who)).send(body);

  const availability = async (
    date: string,
    site: { widget_key: string } = org.site,
    base = app.url,
  ) => {
    const res = await request(base)
      .post('/api/widget/appointments/availability')
      .send({ widget_key: site.widget_key, date })
      .expect(200);
    expect(res.body.date).toBe(date);
    return res.body as { date: string; timezone: string; slots: SlotBody[] };
  };

  const book = (session: Session, body: Record<string, unknown>, base = app.url) =>
    request(base)
      .post('/api/widget/appointments/book')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send(body);

  /** A new organization (its own site and settings), so each area starts from the defaults. */
  const organization = (name: string) => registerOrganization(app.url, name);

  const siteIn = (who: Registered, timezone: string) =>
    createSite(app.url, who.token, { name: `${timezone} site`, timezone });

  beforeAll(async () => {
    ({ app, db, databaseUrl } = suite = await startTestApp({
      PUBLIC_URL: 'https://chat.example.test',
    }));
    org = await organization('Acme');
    other = await organization('Other');
  });

  afterAll(() => suite?.stop());

  describe('settings', () => {
    it("start with the spec's defaults, Monday to Friday 09:00-17:00, in the site's zone", async () => {
      const res = await request(app.url)
        .get('/api/agent/appointment-settings')
        .set(agent())
        .expect(200);
      expect(res.body).toMatchObject({
        status: true,
        timezone: 'UTC',
        settings: {
          site_id: org.site.id,
          enabled: true,
          duration_minutes: 30,
          buffer_minutes: 0,
          slot_interval_minutes: 30,
          advance_days: 14,
          min_notice_hours: 2,
          working_hours: {
            monday: NINE_TO_FIVE,
            tuesday: NINE_TO_FIVE,
            wednesday: NINE_TO_FIVE,
            thursday: NINE_TO_FIVE,
            friday: NINE_TO_FIVE,
            saturday: [],
            sunday: [],
          },
        },
      });
    });

    it('accept every bound and refuse one past it, naming the field', async () => {
      const owner = await organization('Bounds');
      const bounds: [string, number, number][] = [
        ['duration_minutes', 5, 240],
        ['buffer_minutes', 0, 120],
        ['slot_interval_minutes', 5, 120],
        ['advance_days', 1, 90],
        ['min_notice_hours', 0, 168],
      ];
      for (const [field, min, max] of bounds) {
        for (const value of [min, max]) {
          const ok = await patchSettings(owner, { [field]: value }).expect(200);
          expect(ok.body.settings[field]).toBe(value);
        }
        for (const value of [min - 1, max + 1, 30.5, '30', null]) {
          const bad = await patchSettings(owner, { [field]: value }).expect(422);
          expect(Object.keys(bad.body.errors)).toEqual([field]);
        }
      }
      const bad = await patchSettings(owner, { enabled: 'yes' }).expect(422);
      expect(Object.keys(bad.body.errors)).toEqual(['enabled']);
      const off = await patchSettings(owner, { enabled: false }).expect(200);
      expect(off.body.settings.enabled).toBe(false);
      // Refused changes wrote nothing: the last accepted values stand.
      const now = await request(app.url)
        .get('/api/agent/appointment-settings')
        .set(agent(owner))
        .expect(200);
      expect(now.body.settings).toMatchObject({
        duration_minutes: 240,
        buffer_minutes: 120,
        slot_interval_minutes: 120,
        advance_days: 90,
        min_notice_hours: 168,
        enabled: false,
      });
    });

    it('take working hours per weekday, several ranges a day, and refuse malformed ones', async () => {
      const owner = await organization('Hours');
      const res = await patchSettings(owner, {
        working_hours: {
          saturday: [
            { start: '14:00', end: '16:00' },
            { start: '10:00', end: '12:00' },
          ],
          monday: [],
        },
      }).expect(200);
      expect(res.body.settings.working_hours).toEqual({
        monday: [],
        tuesday: NINE_TO_FIVE,
        wednesday: NINE_TO_FIVE,
        thursday: NINE_TO_FIVE,
        friday: NINE_TO_FIVE,
        saturday: [
          { start: '10:00', end: '12:00' },
          { start: '14:00', end: '16:00' },
        ],
        sunday: [],
      });
      const invalid: unknown[] = [
        [],
        'monday',
        { funday: [] },
        { monday: 'closed' },
        { monday: [{ start: '9:00', end: '17:00' }] },
        { monday: [{ start: '09:00', end: '24:01' }] },
        { monday: [{ start: '17:00', end: '09:00' }] },
        {
          monday: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '13:00' },
          ],
        },
        null,
      ];
      for (const working_hours of invalid) {
        const bad = await patchSettings(owner, { working_hours }).expect(422);
        expect(Object.keys(bad.body.errors)).toEqual(['working_hours']);
      }
      const overlap = await patchSettings(owner, {
        working_hours: {
          tuesday: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '13:00' },
          ],
        },
      }).expect(422);
      expect(overlap.body.message).toBe(
        'The working_hours.tuesday.1 overlaps working_hours.tuesday.0.',
      );
    });

    it('are per site: site_id picks one of the organization, others are 404', async () => {
      const owner = await organization('Sites');
      const berlin = await siteIn(owner, 'Europe/Berlin');
      const res = await patchSettings(
        owner,
        { duration_minutes: 45 },
        `?site_id=${berlin.id}`,
      ).expect(200);
      expect(res.body).toMatchObject({
        timezone: 'Europe/Berlin',
        settings: { site_id: berlin.id, duration_minutes: 45 },
      });
      const first = await request(app.url)
        .get('/api/agent/appointment-settings')
        .set(agent(owner))
        .expect(200);
      expect(first.body.settings).toMatchObject({ site_id: owner.site.id, duration_minutes: 30 });
      await request(app.url)
        .get(`/api/agent/appointment-settings?site_id=${other.site.id}`)
        .set(agent(owner))
        .expect(404);
      await patchSettings(owner, { duration_minutes: 60 }, `?site_id=${other.site.id}`).expect(404);
      await request(app.url)
        .get('/api/agent/appointment-settings?site_id=abc')
        .set(agent(owner))
        .expect(422);
      await request(app.url).get('/api/agent/appointment-settings').expect(401);
    });
  });

  describe('availability', () => {
    it('offers every interval of an ordinary weekday inside working hours', async () => {
      const date = weekdayFrom(3);
      const body = await availability(date);
      expect(body.timezone).toBe('UTC');
      expect(body.slots).toHaveLength(16);
      expect(body.slots[0]).toEqual({
        starts_at: `${date}T09:00:00Z`,
        ends_at: `${date}T09:30:00Z`,
        label: '09:00',
        available: true,
        status: 'available',
      });
      expect(body.slots[15].label).toBe('16:30');
    });

    it('has no slots on a weekend by default', async () => {
      const saturday = saturdayFrom(1);
      expect((await availability(saturday)).slots).toEqual([]);
      const sunday = DateTime.fromISO(saturday).plus({ days: 1 }).toISODate() ?? '';
      expect((await availability(sunday)).slots).toEqual([]);
    });

    it('leaves out the notice window and everything past the advance window', async () => {
      const owner = await organization('Window');
      await patchSettings(owner, { working_hours: EVERY_DAY_ALL_DAY }).expect(200);

      // Default notice (2 h): the first slot is the first half hour at least 2 h from now.
      const before = Date.now();
      const soon = new Date(before + 2.5 * 3_600_000).toISOString().slice(0, 10);
      const first = (await availability(soon, owner.site)).slots[0];
      const start = Date.parse(first.starts_at);
      expect(start).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
      expect(start).toBeLessThanOrEqual(Date.now() + 2.5 * 3_600_000);

      // Default advance (14 days): the 14th day after today is whole, the 15th has nothing.
      expect((await availability(utcDate(14), owner.site)).slots).toHaveLength(48);
      expect((await availability(utcDate(15), owner.site)).slots).toEqual([]);
      expect((await availability(utcDate(-1), owner.site)).slots).toEqual([]);

      // A day entirely inside a 168-hour notice window has nothing.
      await patchSettings(owner, { min_notice_hours: 168 }).expect(200);
      expect((await availability(utcDate(6), owner.site)).slots).toEqual([]);
      expect((await availability(utcDate(8), owner.site)).slots).toHaveLength(48);

      await patchSettings(owner, { advance_days: 1, min_notice_hours: 0 }).expect(200);
      expect((await availability(utcDate(1), owner.site)).slots).toHaveLength(48);
      expect((await availability(utcDate(2), owner.site)).slots).toEqual([]);
    });

    it('answers in the site zone with its offset', async () => {
      const owner = await organization('Tokyo');
      const tokyo = await siteIn(owner, 'Asia/Tokyo');
      const date = weekdayFrom(3);
      const body = await availability(date, tokyo);
      expect(body.timezone).toBe('Asia/Tokyo');
      expect(body.slots[0].starts_at).toBe(`${date}T09:00:00+09:00`);
    });

    it('needs a real YYYY-MM-DD date and a widget key', async () => {
      for (const date of [undefined, '2027-02-30', '2027-3-1', '29.03.2027', 20270329]) {
        const res = await request(app.url)
          .post('/api/widget/appointments/availability')
          .send({ widget_key: org.site.widget_key, date })
          .expect(422);
        expect(Object.keys(res.body.errors)).toEqual(['date']);
      }
      await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ date: weekdayFrom(3) })
        .expect(422);
      await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: 'wk_unknown', date: weekdayFrom(3) })
        .expect(404);
    });

    it('is refused while the site has appointments disabled or the plan lacks them', async () => {
      const owner = await organization('Closed');
      const session = await init(owner.site);
      const date = weekdayFrom(3);
      const slot = { scheduled_at: `${date}T10:00:00Z`, visitor_name: 'Ada' };
      await patchSettings(owner, { enabled: false }).expect(200);
      const disabled = await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: owner.site.widget_key, date })
        .expect(403);
      expect(disabled.body.error_code).toBe('forbidden');
      await book(session, slot).expect(403);

      await patchSettings(owner, { enabled: true }).expect(200);
      await db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [
        owner.organization.id,
      ]);
      const plan = await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: owner.site.widget_key, date })
        .expect(403);
      expect(plan.body.error_code).toBe('feature_not_in_plan');
      await book(session, slot).expect(403);
      // The agents still see and manage what was booked.
      await request(app.url).get('/api/agent/appointments').set(agent(owner)).expect(200);
    });
  });

  describe('booking', () => {
    it('books an available slot and answers the appointment with offsets and text', async () => {
      const owner = await organization('Booking');
      const session = await init(owner.site);
      const date = weekdayFrom(3);
      const res = await book(session, {
        scheduled_at: `${date}T09:00:00Z`,
        visitor_name: 'Ada Lovelace',
        visitor_email: 'ada@example.com',
        visitor_phone: '+44 20 7946 0000',
        button_label: 'Book a demo',
        bot_template_id: 7,
      }).expect(201);
      const weekday = DateTime.fromISO(date).setLocale('en');
      expect(res.body).toMatchObject({
        status: true,
        message: 'Appointment booked.',
        appointment: {
          status: 'confirmed',
          scheduled_at: `${date}T09:00:00Z`,
          ends_at: `${date}T09:30:00Z`,
          timezone: 'UTC',
          formatted: `${weekday.toFormat('cccc, d LLLL yyyy')}, 09:00–09:30 (UTC)`,
          visitor_name: 'Ada Lovelace',
          visitor_email: 'ada@example.com',
          visitor_phone: '+44 20 7946 0000',
          conversation_id: null,
          button_label: 'Book a demo',
          bot_template_id: 7,
        },
      });
      expect(typeof res.body.appointment.id).toBe('number');
      expect(res.body.appointment.notes).toBeUndefined();

      // The same instant written with another offset is the same slot start.
      const same = `${date}T11:30:00+02:00`;
      const shifted = await book(session, { scheduled_at: same, visitor_name: 'Ada' }).expect(201);
      expect(shifted.body.appointment.scheduled_at).toBe(`${date}T09:30:00Z`);
    });

    it('refuses a time that is not an available slot start with 409, a malformed one with 422', async () => {
      const owner = await organization('NotASlot');
      const session = await init(owner.site);
      const date = weekdayFrom(3);
      for (const scheduled_at of [
        `${date}T10:15:00Z`, // between slots
        `${date}T17:00:00Z`, // after working hours
        `${date}T16:45:00Z`,
        `${saturdayFrom(1)}T10:00:00Z`, // a closed day
        `${utcDate(30)}T10:00:00Z`, // past the advance window
        `${utcDate(-7)}T10:00:00Z`, // the past
      ]) {
        const res = await book(session, { scheduled_at, visitor_name: 'Ada' }).expect(409);
        expect(res.body.error_code).toBe('conflict');
      }
      for (const scheduled_at of [`${date}T10:00:00`, 'tomorrow at ten', `${date}`, 42]) {
        const res = await book(session, { scheduled_at, visitor_name: 'Ada' }).expect(422);
        expect(Object.keys(res.body.errors)).toEqual(['scheduled_at']);
      }
    });

    it('needs a name or an email, and a valid email when one is given', async () => {
      const owner = await organization('Contact');
      const session = await init(owner.site);
      const date = weekdayFrom(3);
      const at = (hour: number) => `${date}T${String(hour).padStart(2, '0')}:00:00Z`;

      const neither = await book(session, { scheduled_at: at(9) }).expect(422);
      expect(neither.body.errors).toEqual({
        visitor_name: ['The visitor_name field is required when visitor_email is not present.'],
        visitor_email: ['The visitor_email field is required when visitor_name is not present.'],
      });
      const blank = await book(session, {
        scheduled_at: at(9),
        visitor_name: '  ',
        visitor_email: '',
      }).expect(422);
      expect(Object.keys(blank.body.errors).sort()).toEqual(['visitor_email', 'visitor_name']);
      const badEmail = await book(session, {
        scheduled_at: at(9),
        visitor_name: 'Ada',
        visitor_email: 'not-an-email',
      }).expect(422);
      expect(badEmail.body.errors).toEqual({ visitor_email: ['Visitor_email must be an email.'] });
      const longName = await book(session, {
        scheduled_at: at(9),
        visitor_name: 'x'.repeat(256),
      }).expect(422);
      expect(Object.keys(longName.body.errors)).toEqual(['visitor_name']);
      await book(session, {
        scheduled_at: at(9),
        visitor_name: 'Ada',
        visitor_phone: 'x'.repeat(51),
      }).expect(422);

      const nameOnly = await book(session, { scheduled_at: at(9), visitor_name: 'Ada' }).expect(
        201,
      );
      expect(nameOnly.body.appointment).toMatchObject({ visitor_name: 'Ada', visitor_email: null });
      const emailOnly = await book(session, {
        scheduled_at: at(10),
        visitor_email: 'ada@example.com',
      }).expect(201);
      expect(emailOnly.body.appointment).toMatchObject({
        visitor_name: null,
        visitor_email: 'ada@example.com',
      });
    });

    it('keeps the buffer free after a booking and shows booked slots as booked', async () => {
      const owner = await organization('Buffer');
      await patchSettings(owner, { buffer_minutes: 15 }).expect(200);
      const session = await init(owner.site);
      const date = weekdayFrom(3);
      await book(session, { scheduled_at: `${date}T10:00:00Z`, visitor_name: 'Ada' }).expect(201);

      const slots = (await availability(date, owner.site)).slots;
      const status = Object.fromEntries(slots.map((s) => [s.label, [s.status, s.available]]));
      expect(status).toMatchObject({
        '09:00': ['available', true],
        // 09:30 plus its own 15-minute buffer would run into the 10:00 appointment.
        '09:30': ['booked', false],
        '10:00': ['booked', false],
        // 10:30 is inside the buffer after the 10:00 appointment.
        '10:30': ['booked', false],
        '11:00': ['available', true],
      });
      expect(slots).toHaveLength(16);

      await book(session, { scheduled_at: `${date}T10:30:00Z`, visitor_name: 'Bo' }).expect(409);
      await book(session, { scheduled_at: `${date}T09:30:00Z`, visitor_name: 'Bo' }).expect(409);
      await book(session, { scheduled_at: `${date}T11:00:00Z`, visitor_name: 'Bo' }).expect(201);
      const rows = await db.query(
        `SELECT blocked_until FROM appointments WHERE site_id = $1 ORDER BY scheduled_at`,
        [owner.site.id],
      );
      expect(rows.rows.map((r: { blocked_until: Date }) => r.blocked_until.toISOString())).toEqual([
        `${date}T10:45:00.000Z`,
        `${date}T11:45:00.000Z`,
      ]);
    });

    it('lets exactly one of 20 concurrent bookings of one slot through', async () => {
      const owner = await organization('Rush');
      const sessions = await Promise.all(Array.from({ length: 20 }, () => init(owner.site)));
      const scheduled_at = `${weekdayFrom(3)}T14:00:00Z`;
      const results = await Promise.all(
        sessions.map((session, i) => book(session, { scheduled_at, visitor_name: `Visitor ${i}` })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const count = await db.query(
        `SELECT count(*)::int AS n FROM appointments WHERE site_id = $1`,
        [owner.site.id],
      );
      expect(count.rows[0].n).toBe(1);
    });

    it('the database itself refuses an overlapping booking', async () => {
      const owner = await organization('Constraint');
      const session = await init(owner.site);
      const row = {
        org: owner.organization.id,
        site: owner.site.id,
        visitor: session.visitor_id,
      };
      const insert = (start: string, end: string, status = 'confirmed') =>
        db.query(
          `INSERT INTO appointments (organization_id, site_id, visitor_id, scheduled_at, ends_at,
             blocked_until, status, visitor_name)
           VALUES ($1, $2, $3, $4, $5, $5, $6, 'X')`,
          [row.org, row.site, row.visitor, start, end, status],
        );
      await insert('2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z');
      await expect(insert('2030-01-07T10:15:00Z', '2030-01-07T10:45:00Z')).rejects.toMatchObject({
        code: '23P01',
      });
      // Touching is not overlapping; cancelled appointments block nothing.
      await insert('2030-01-07T10:30:00Z', '2030-01-07T11:00:00Z');
      await insert('2030-01-07T10:00:00Z', '2030-01-07T10:30:00Z', 'cancelled');
    });

    it('announces the booking in the given conversation with a system message', async () => {
      const owner = await organization('Chat');
      const session = await init(owner.site);
      await request(app.url)
        .post('/api/widget/messages')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ body: 'Can I book a call?' })
        .expect(201);
      const date = weekdayFrom(3);
      const res = await book(session, {
        scheduled_at: `${date}T13:00:00Z`,
        visitor_email: 'carol@example.com',
        conversation_id: session.conversation_id,
      }).expect(201);
      expect(res.body.appointment.conversation_id).toBe(session.conversation_id);

      const messages = await request(app.url)
        .get(`/api/agent/conversations/${session.conversation_id}/messages?after_id=0`)
        .set(agent(owner))
        .expect(200);
      const system = (messages.body.data as { sender_type: string; body: string }[]).filter(
        (m) => m.sender_type === 'system',
      );
      expect(system).toHaveLength(1);
      expect(system[0].body).toBe(`Appointment booked: ${res.body.appointment.formatted}.`);

      // Another visitor's conversation (or another organization's) is refused, and nothing is booked.
      const stranger = await init(owner.site);
      const foreign = await init(other.site);
      for (const conversation_id of [stranger.conversation_id, foreign.conversation_id]) {
        const bad = await book(session, {
          scheduled_at: `${date}T15:00:00Z`,
          visitor_name: 'Carol',
          conversation_id,
        }).expect(422);
        expect(Object.keys(bad.body.errors)).toEqual(['conversation_id']);
      }
      const count = await db.query(
        `SELECT count(*)::int AS n FROM appointments WHERE site_id = $1 AND scheduled_at = $2`,
        [owner.site.id, `${date}T15:00:00Z`],
      );
      expect(count.rows[0].n).toBe(0);
    });
  });

  describe('agent list and update', () => {
    it('lists one site in time order, filtered by status and local dates', async () => {
      const owner = await organization('Desk');
      const berlin = await siteIn(owner, 'Europe/Berlin');
      const session = await init(owner.site);
      const berliner = await init(berlin);
      const early = weekdayFrom(3);
      let next = DateTime.fromISO(early).plus({ days: 1 });
      while (next.weekday > 5) next = next.plus({ days: 1 });
      const late = next.toISODate() ?? '';
      const booked = async (s: Session, scheduled_at: string) =>
        (await book(s, { scheduled_at, visitor_name: 'Dee' }).expect(201)).body.appointment as {
          id: number;
        };
      const b = await booked(session, `${late}T09:00:00Z`);
      const a = await booked(session, `${early}T16:00:00Z`);
      const nineInBerlin = DateTime.fromISO(`${early}T09:00`, { zone: 'Europe/Berlin' }).toISO({
        suppressMilliseconds: true,
      });
      const d = await booked(berliner, nineInBerlin ?? '');

      const list = await request(app.url)
        .get('/api/agent/appointments')
        .set(agent(owner))
        .expect(200);
      expect(list.body).toMatchObject({ current_page: 1, per_page: 50, total: 2, last_page: 1 });
      expect(list.body.data.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
      expect(list.body.data[0]).toMatchObject({
        site_id: owner.site.id,
        visitor_id: session.visitor_id,
        status: 'confirmed',
        timezone: 'UTC',
        notes: null,
        conversation_id: null,
      });

      const bySite = await request(app.url)
        .get(`/api/agent/appointments?site_id=${berlin.id}`)
        .set(agent(owner))
        .expect(200);
      expect(bySite.body.data.map((x: { id: number }) => x.id)).toEqual([d.id]);
      expect(bySite.body.data[0].timezone).toBe('Europe/Berlin');
      expect(bySite.body.data[0].scheduled_at).toBe(nineInBerlin);

      const ids = async (query: string) =>
        (
          await request(app.url)
            .get(`/api/agent/appointments?${query}`)
            .set(agent(owner))
            .expect(200)
        ).body.data.map((x: { id: number }) => x.id);
      expect(await ids(`from=${late}`)).toEqual([b.id]);
      expect(await ids(`to=${early}`)).toEqual([a.id]);
      expect(await ids(`from=${early}&to=${early}`)).toEqual([a.id]);
      expect(await ids(`from=${late}&to=${late}&status=confirmed`)).toEqual([b.id]);
      expect(await ids('status=cancelled')).toEqual([]);

      for (const query of [
        'status=done',
        'from=2027-13-01',
        'to=tomorrow',
        `from=${late}&to=${early}`,
        'site_id=0',
        'per_page=101',
      ]) {
        await request(app.url)
          .get(`/api/agent/appointments?${query}`)
          .set(agent(owner))
          .expect(422);
      }
      await request(app.url)
        .get(`/api/agent/appointments?site_id=${other.site.id}`)
        .set(agent(owner))
        .expect(404);
    });

    it('updates status and notes; cancelling frees the slot, reviving a retaken one is a 409', async () => {
      const owner = await organization('Update');
      const first = await init(owner.site);
      const second = await init(owner.site);
      const date = weekdayFrom(3);
      const scheduled_at = `${date}T12:00:00Z`;
      const booked = await book(first, { scheduled_at, visitor_name: 'Eve' }).expect(201);
      const id = booked.body.appointment.id as number;
      const path = `/api/agent/appointments/${id}`;

      const notes = 'n'.repeat(2000);
      const done = await request(app.url)
        .patch(path)
        .set(agent(owner))
        .send({ status: 'completed', notes })
        .expect(200);
      expect(done.body).toMatchObject({
        message: 'Appointment updated.',
        data: { id, status: 'completed', notes },
      });
      const keep = await request(app.url)
        .patch(path)
        .set(agent(owner))
        .send({ status: 'pending' })
        .expect(200);
      expect(keep.body.data).toEqual({ id, status: 'pending', notes });

      for (const body of [
        {},
        { status: 'done' },
        { status: 'cancelled', notes: 'n'.repeat(2001) },
        { status: 'cancelled', notes: 5 },
      ]) {
        await request(app.url).patch(path).set(agent(owner)).send(body).expect(422);
      }
      await request(app.url)
        .patch(path)
        .set(agent(other))
        .send({ status: 'cancelled' })
        .expect(404);
      await request(app.url)
        .patch('/api/agent/appointments/999999999')
        .set(agent(owner))
        .send({ status: 'cancelled' })
        .expect(404);

      const slotOf = async () =>
        (await availability(date, owner.site)).slots.find((s) => s.label === '12:00');
      expect((await slotOf())?.status).toBe('booked');
      const cancelled = await request(app.url)
        .patch(path)
        .set(agent(owner))
        .send({ status: 'cancelled', notes: null })
        .expect(200);
      expect(cancelled.body.data).toEqual({ id, status: 'cancelled', notes: null });
      expect((await slotOf())?.status).toBe('available');

      await book(second, { scheduled_at, visitor_name: 'Fay' }).expect(201);
      const revived = await request(app.url)
        .patch(path)
        .set(agent(owner))
        .send({ status: 'confirmed' })
        .expect(409);
      expect(revived.body.error_code).toBe('conflict');

      // Another organization sees none of it.
      const theirs = await request(app.url)
        .get('/api/agent/appointments')
        .set(agent(other))
        .expect(200);
      expect(theirs.body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    });
  });

  describe('daylight saving (Europe/Berlin, with APPOINTMENTS_NOW)', () => {
    let frozen: AppProcess;

    beforeAll(async () => {
      // The spring-forward Sunday is months away from the real date; a second instance on the
      // same database runs with the clock set a week before it.
      frozen = await startApp({
        DATABASE_URL: databaseUrl,
        PUBLIC_URL: 'https://chat.example.test',
        APPOINTMENTS_NOW: '2027-03-20T08:00:00Z',
      });
    });

    afterAll(async () => {
      await frozen?.stop();
    });

    it('skips the missing hour of the spring-forward day and switches from +01:00 to +02:00', async () => {
      const owner = await organization('Berlin');
      const berlin = await siteIn(owner, 'Europe/Berlin');
      await patchSettings(
        owner,
        { working_hours: { sunday: ALL_DAY } },
        `?site_id=${berlin.id}`,
      ).expect(200);

      const sunday = await availability('2027-03-28', berlin, frozen.url);
      expect(sunday.timezone).toBe('Europe/Berlin');
      // 23 hours that day: 46 half-hour slots instead of 48.
      expect(sunday.slots).toHaveLength(46);
      const starts = sunday.slots.map((s) => s.starts_at);
      expect(starts.slice(0, 6)).toEqual([
        '2027-03-28T00:00:00+01:00',
        '2027-03-28T00:30:00+01:00',
        '2027-03-28T01:00:00+01:00',
        '2027-03-28T01:30:00+01:00',
        '2027-03-28T03:00:00+02:00',
        '2027-03-28T03:30:00+02:00',
      ]);
      expect(starts.filter((s) => s.startsWith('2027-03-28T02:'))).toEqual([]);
      expect(starts.slice(0, 4).every((s) => s.endsWith('+01:00'))).toBe(true);
      expect(starts.slice(4).every((s) => s.endsWith('+02:00'))).toBe(true);
      expect(sunday.slots[3].ends_at).toBe('2027-03-28T03:00:00+02:00');
      expect(sunday.slots.map((s) => s.label)).not.toContain('02:00');

      // Ordinary working days on either side keep 09:00 local, in winter and in summer time.
      const friday = await availability('2027-03-26', berlin, frozen.url);
      expect(friday.slots[0].starts_at).toBe('2027-03-26T09:00:00+01:00');
      const monday = await availability('2027-03-29', berlin, frozen.url);
      expect(monday.slots[0].starts_at).toBe('2027-03-29T09:00:00+02:00');
      expect(monday.slots).toHaveLength(16);

      // Booking the slot right after the jump.
      const session = await init(berlin);
      const res = await book(
        session,
        { scheduled_at: '2027-03-28T03:00:00+02:00', visitor_name: 'Hans' },
        frozen.url,
      ).expect(201);
      expect(res.body.appointment).toMatchObject({
        scheduled_at: '2027-03-28T03:00:00+02:00',
        ends_at: '2027-03-28T03:30:00+02:00',
        timezone: 'Europe/Berlin',
        formatted: 'Sunday, 28 March 2027, 03:00–03:30 (Europe/Berlin)',
      });
      // The instance on the real clock sees that day beyond the advance window.
      expect((await availability('2027-03-28', berlin)).slots).toEqual([]);
    });
  });
});
