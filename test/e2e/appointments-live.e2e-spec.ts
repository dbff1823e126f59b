import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { connect } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * Issue 26: the availability names the weekdays with working hours (a day picker offers only
 * those), and a booking is pushed to the organization's agents (the visitor panel, live).
 */
describe('appointments: working weekdays and the booking pushed to the agents', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
  });

  afterAll(() => suite?.stop());

  it('answers the working weekdays and pushes a booking to this organization only', async () => {
    await request(app.url)
      .patch('/api/agent/appointment-settings')
      .set('Authorization', `Bearer ${org.token}`)
      .send({
        min_notice_hours: 0,
        working_hours: Object.fromEntries(
          DAYS.map((day) => [
            day,
            ['tuesday', 'saturday'].includes(day) ? [{ start: '10:00', end: '12:00' }] : [],
          ]),
        ),
      })
      .expect(200);
    // The next Tuesday or Saturday at least a day ahead.
    let date = '';
    for (let i = 1; i <= 7 && !date; i += 1) {
      const candidate = new Date(Date.now() + i * 24 * 3600_000).toISOString().slice(0, 10);
      const weekday = DAYS[new Date(`${candidate}T12:00:00Z`).getUTCDay()];
      if (weekday === 'tuesday' || weekday === 'saturday') date = candidate;
    }
    const availability = await request(app.url)
      .post('/api/widget/appointments/availability')
      .send({ widget_key: org.site.widget_key, date })
      .expect(200);
    expect(availability.body.working_weekdays).toEqual(['tuesday', 'saturday']);

    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key, visitor_name: 'Bo Booker' })
        .expect(200)
    ).body as { session_token: string; visitor_id: number };
    const agents = await connect(suite.direct, '/agent', org.token);
    const strangers = await connect(suite.direct, '/agent', other.token);
    try {
      const slot = (availability.body.slots as { starts_at: string; available: boolean }[]).find(
        (s) => s.available,
      )!;
      const booked = await request(app.url)
        .post('/api/widget/appointments/book')
        .set('Authorization', `Bearer ${session.session_token}`)
        .send({ scheduled_at: slot.starts_at, visitor_name: 'Bo Booker' })
        .expect(201);
      expect(await agents.next('appointment.booked')).toEqual({
        appointment_id: booked.body.appointment.id,
        visitor_id: session.visitor_id,
      });
      const panel = await request(app.url)
        .get(`/api/agent/visitors/${session.visitor_id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);
      expect(panel.body.data.appointments.map((a: { id: number }) => a.id)).toEqual([
        booked.body.appointment.id,
      ]);
      expect(strangers.received('appointment.booked')).toEqual([]);
    } finally {
      agents.close();
      strangers.close();
    }
  });
});
