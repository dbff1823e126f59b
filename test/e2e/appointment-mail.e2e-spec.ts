import { DateTime } from 'luxon';
import { simpleParser, type ParsedMail } from 'mailparser';
import request from 'supertest';
import { createSite, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    [{ start: '08:00', end: '20:00' }],
  ]),
);

/** The text/calendar part of a mail (nodemailer's icalEvent: an alternative and `invite.ics`). */
const calendarOf = (mail: ParsedMail): string => {
  const file = mail.attachments.find((part) => part.contentType.startsWith('text/calendar'));
  if (!file) throw new Error('the mail has no text/calendar part');
  return file.content.toString('utf8').replace(/\r\n[ \t]/g, '');
};
const property = (ics: string, name: string): string[] =>
  ics.split(/\r\n/).filter((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));

/**
 * Appointments by email (DESIGN section 9): a booking mails the visitor a confirmation with an
 * `.ics` invite (METHOD:REQUEST, the site's zone), the owners get the same invite, and a
 * cancellation mails METHOD:CANCEL with the same UID and a higher SEQUENCE.
 */
describe('appointments by email', () => {
  let suite: TestApp;
  let app: AppProcess;
  let smtp: SmtpCapture;
  let org: Registered;
  let site: { id: number; widget_key: string };

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: 'reply.acme.example',
    }));
    org = await registerOrganization(app.url, 'Acme');
    site = await createSite(app.url, org.token, { name: 'Berlin shop', timezone: 'Europe/Berlin' });
    await request(app.url)
      .patch(`/api/agent/appointment-settings?site_id=${site.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ working_hours: EVERY_DAY, min_notice_hours: 0 })
      .expect(200);
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('mails the visitor and the owner an invite, then its cancellation with the same UID', async () => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key, locale: 'de' })
        .expect(200)
    ).body as { session_token: string };
    const date = DateTime.now().setZone('Europe/Berlin').plus({ days: 2 }).toISODate() ?? '';
    const slots = (
      await request(app.url)
        .post('/api/widget/appointments/availability')
        .send({ widget_key: site.widget_key, date })
        .expect(200)
    ).body as { slots: { starts_at: string; ends_at: string; available: boolean }[] };
    const slot = slots.slots.find((candidate) => candidate.available);
    if (!slot) throw new Error(`no slot on ${date}`);
    const booked = await request(app.url)
      .post('/api/widget/appointments/book')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({
        scheduled_at: slot.starts_at,
        visitor_name: 'Ada',
        visitor_email: 'ada@example.test',
      })
      .expect(201);
    const appointmentId = booked.body.appointment.id as number;

    const confirmation = await simpleParser((await smtp.next('ada@example.test')).raw);
    expect(confirmation.subject).toBe('Ihr Termin mit Berlin shop');
    expect(confirmation.text).toContain('Hallo Ada,');
    expect(confirmation.text).toContain('(Europe/Berlin)');
    expect(confirmation.html).toContain('Berlin shop');
    const invite = calendarOf(confirmation);
    expect(property(invite, 'METHOD')).toEqual(['METHOD:REQUEST']);
    expect(invite).toContain('BEGIN:VTIMEZONE');
    expect(invite).toContain('TZID:Europe/Berlin');
    const start = DateTime.fromISO(slot.starts_at).setZone('Europe/Berlin');
    // The VTIMEZONE's own DTSTARTs come first; the event's is the one with the TZID.
    expect(property(invite, 'DTSTART').filter((line) => line.includes('TZID'))).toEqual([
      `DTSTART;TZID=Europe/Berlin:${start.toFormat("yyyyMMdd'T'HHmmss")}`,
    ]);
    const [uid] = property(invite, 'UID');
    expect(uid).toBe(`UID:appointment-${appointmentId}@reply.acme.example`);
    expect(property(invite, 'STATUS')).toEqual(['STATUS:CONFIRMED']);
    expect(invite).toMatch(/ATTENDEE[^\r\n]*:mailto:ada@example\.test/i);

    const ownerCopy = await simpleParser(
      (await smtp.next(org.user.email, (mail) => mail.raw.includes('METHOD:REQUEST'))).raw,
    );
    expect(ownerCopy.subject).toBe('Your appointment with Berlin shop');
    expect(ownerCopy.text).toContain('Your appointment with Ada is booked for');
    expect(property(calendarOf(ownerCopy), 'UID')).toEqual([uid]);

    // Confirming changes nothing a calendar needs: no mail. Cancelling mails METHOD:CANCEL.
    const agent = { Authorization: `Bearer ${org.token}` };
    await request(app.url)
      .patch(`/api/agent/appointments/${appointmentId}`)
      .set(agent)
      .send({ status: 'confirmed' })
      .expect(200);
    await request(app.url)
      .patch(`/api/agent/appointments/${appointmentId}`)
      .set(agent)
      .send({ status: 'cancelled' })
      .expect(200);
    const cancellation = await simpleParser((await smtp.next('ada@example.test')).raw);
    expect(cancellation.subject).toBe('Termin mit Berlin shop abgesagt');
    const cancel = calendarOf(cancellation);
    expect(property(cancel, 'METHOD')).toEqual(['METHOD:CANCEL']);
    expect(property(cancel, 'UID')).toEqual([uid]);
    expect(property(cancel, 'STATUS')).toEqual(['STATUS:CANCELLED']);
    const sequence = (ics: string) => Number(property(ics, 'SEQUENCE')[0].split(':')[1]);
    expect(sequence(cancel)).toBeGreaterThan(sequence(invite));
    await smtp.next(org.user.email, (mail) => mail.raw.includes('METHOD:CANCEL'));

    // Only the mails above were sent to the visitor: the confirmation of the status sent none.
    const toVisitor = smtp.mails.filter((mail) => mail.to.includes('ada@example.test'));
    expect(toVisitor).toHaveLength(2);
    const log = await request(app.url).get('/api/agent/mail-log').set(agent).expect(200);
    const kinds = (log.body.data as { kind: string; recipient: string }[])
      .filter((entry) => entry.recipient === 'ada@example.test')
      .map((entry) => entry.kind);
    expect(kinds).toEqual(['appointment_cancellation', 'appointment_confirmation']);
  });
});
