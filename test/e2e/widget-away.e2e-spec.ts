import { DateTime } from 'luxon';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Pool } from 'pg';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

interface Availability {
  online: boolean;
  within_business_hours: boolean;
  next_open_at: string | null;
  reply_time: string;
  away_message: string | null;
}

interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
  widget_config: { agents_online: boolean; availability: Availability; offline: { mode: string } };
  visitor_profile: { email: string };
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const header = (mail: ParsedMail, name: string) =>
  (mail.headerLines.find((line) => line.key === name)?.line ?? '')
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/^[^:]+:\s*/, '');

/**
 * The widget never refuses a message (DESIGN section 9): availability from presence and business
 * hours, the offline mode, the address a visitor leaves, and transcripts.
 */
describe('widget: away mode, business hours and transcripts', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let org: Registered;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const init = async (owner = org, locale?: string): Promise<Session> =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, locale })
        .expect(200)
    ).body as Session;
  const patchSite = (settings: object, owner = org, extra: object = {}) =>
    request(app.url)
      .patch(`/api/agent/sites/${owner.site.id}`)
      .set(bearer(owner.token))
      .send({ ...extra, widget_settings: settings });
  const presence = (status: string, owner = org) =>
    request(app.url)
      .patch('/api/agent/presence')
      .set(bearer(owner.token))
      .send({ status })
      .expect(200);

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, db } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_REPLY_DOMAIN: 'reply.acme.example',
    }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('answers availability from presence and business hours, next_open_at in the site zone', async () => {
    const owner = await registerOrganization(app.url, 'Hours');
    const fresh = await init(owner);
    expect(fresh.widget_config.availability).toEqual({
      online: false,
      within_business_hours: true,
      next_open_at: null,
      reply_time: 'hours',
      away_message: null,
    });
    expect(fresh.widget_config.offline).toEqual({ mode: 'chat' });
    await presence('online', owner);
    expect((await init(owner)).widget_config.availability).toMatchObject({
      online: true,
      within_business_hours: true,
    });

    // Open only on one day three days from now, 09:30 to 17:00 in Kathmandu (UTC+05:45).
    const zone = 'Asia/Kathmandu';
    const day = DateTime.now().setZone(zone).plus({ days: 3 });
    const weekday = WEEKDAYS[day.weekday - 1];
    const saved = await patchSite(
      {
        availability: {
          business_hours: { [weekday]: [{ start: '09:30', end: '17:00' }] },
          away_message: 'We are in the mountains. Leave a message!',
          reply_time: 'day',
        },
      },
      owner,
      { timezone: zone },
    ).expect(200);
    expect(saved.body.data.widget_settings.availability.business_hours).toEqual(
      Object.fromEntries(
        WEEKDAYS.map((d) => [d, d === weekday ? [{ start: '09:30', end: '17:00' }] : []]),
      ),
    );
    const outside = await init(owner);
    expect(outside.widget_config.agents_online).toBe(true);
    expect(outside.widget_config.availability).toEqual({
      online: false,
      within_business_hours: false,
      next_open_at: day.set({ hour: 9, minute: 30, second: 0, millisecond: 0 }).toUTC().toISO(),
      reply_time: 'day',
      away_message: 'We are in the mountains. Leave a message!',
    });
    const config = await request(app.url)
      .get('/api/widget/config')
      .query({ widget_key: owner.site.widget_key })
      .expect(200);
    expect(config.body.widget_config.availability).toEqual(outside.widget_config.availability);

    // Every day all day: within the hours again; null hours is always open too.
    const allWeek = Object.fromEntries(
      WEEKDAYS.map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
    );
    await patchSite({ availability: { business_hours: allWeek } }, owner).expect(200);
    expect((await init(owner)).widget_config.availability).toMatchObject({
      online: true,
      within_business_hours: true,
      next_open_at: null,
      reply_time: 'day',
    });
    await patchSite({ availability: { business_hours: null, away_message: null } }, owner).expect(
      200,
    );
    expect((await init(owner)).widget_config.availability).toMatchObject({
      within_business_hours: true,
      away_message: null,
    });
  });

  it('refuses bad availability, offline and transcript settings with the field named', async () => {
    const bad = await patchSite({
      availability: {
        business_hours: { monday: [{ start: '18:00', end: '09:00' }], funday: [] },
        away_message: '',
        reply_time: 'weeks',
      },
      offline: { mode: 'email' },
      transcripts: { on_close: 'yes' },
    }).expect(422);
    expect(bad.body.error_code).toBe('validation_failed');
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'widget_settings.availability.away_message',
      'widget_settings.availability.business_hours',
      'widget_settings.availability.reply_time',
      'widget_settings.offline.mode',
      'widget_settings.transcripts.on_close',
    ]);
    expect(bad.body.errors['widget_settings.availability.business_hours'][0]).toContain(
      'business_hours.monday.0.end must be after business_hours.monday.0.start.',
    );
  });

  it('takes a message with nobody online: waiting, and the address the visitor leaves', async () => {
    const owner = await registerOrganization(app.url, 'Quiet');
    const session = await init(owner);
    expect(session.widget_config.availability.online).toBe(false);
    const sent = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(session.session_token))
      .send({ body: 'Anyone there?' })
      .expect(201);
    const status = await db.query('SELECT status FROM conversations WHERE id = $1', [
      sent.body.conversation_id,
    ]);
    expect(status.rows[0].status).toBe('waiting');

    await request(app.url)
      .post('/api/widget/email')
      .set(bearer(session.session_token))
      .send({ email: 'not-an-address' })
      .expect(422);
    const saved = await request(app.url)
      .post('/api/widget/email')
      .set(bearer(session.session_token))
      .send({ email: 'ada@example.com' })
      .expect(200);
    expect(saved.body.visitor_profile).toMatchObject({
      email: 'ada@example.com',
      pre_chat_submitted: false,
    });
    const agentView = await request(app.url)
      .get(`/api/agent/conversations/${sent.body.conversation_id}`)
      .set(bearer(owner.token))
      .expect(200);
    expect(agentView.body.data.visitor.email).toBe('ada@example.com');
    await request(app.url).post('/api/widget/email').send({ email: 'a@b.example' }).expect(401);
  });

  it('offers the ticket form only where the site chose it', async () => {
    const owner = await registerOrganization(app.url, 'Tickets');
    await patchSite({ offline: { mode: 'ticket_form' } }, owner).expect(200);
    expect((await init(owner)).widget_config.offline).toEqual({ mode: 'ticket_form' });
    const site = await request(app.url)
      .get(`/api/agent/sites/${owner.site.id}`)
      .set(bearer(owner.token))
      .expect(200);
    expect(site.body.data.widget_settings.offline).toEqual({ mode: 'ticket_form' });
    // A PATCH of another section keeps it.
    await patchSite({ transcripts: { on_close: true } }, owner).expect(200);
    expect((await init(owner)).widget_config.offline.mode).toBe('ticket_form');
  });

  it('mails a transcript on request: 422 without an address, 3 an hour, the whole conversation', async () => {
    const session = await init(org, 'de');
    const nothingYet = await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(session.session_token))
      .send({ email: 'grace@example.com' })
      .expect(422);
    expect(Object.keys(nothingYet.body.errors)).toEqual(['conversation_id']);
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(session.session_token))
      .send({ body: 'Wo ist meine Bestellung?' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/messages`)
      .set(bearer(org.token))
      .send({ body: 'Unterwegs <b>heute</b>.' })
      .expect(201);
    await request(app.url)
      .post(`/api/agent/conversations/${session.conversation_id}/messages`)
      .set(bearer(org.token))
      .send({ body: 'A note only agents see.', private: true })
      .expect(201);

    const noAddress = await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(session.session_token))
      .send({})
      .expect(422);
    expect(noAddress.body.errors).toEqual({
      email: ['The email field is required when we do not know your address.'],
    });
    await request(app.url).post('/api/widget/transcript').send({}).expect(401);

    const queued = await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(session.session_token))
      .send({ email: 'grace@example.com' })
      .expect(202);
    expect(queued.body).toMatchObject({
      status: true,
      message: 'The transcript is on its way.',
      data: { conversation_id: session.conversation_id, email: 'grace@example.com' },
    });
    const mail = await simpleParser((await smtp.next('grace@example.com')).raw);
    expect(mail.subject).toBe('Ihr Gespräch mit Acme');
    expect(mail.text).toContain('Hier ist Ihr Gespräch mit Acme:');
    expect(mail.text).toContain('Wo ist meine Bestellung?');
    expect(mail.text).toMatch(/Sie · [^\n]+:\n {2}Wo ist meine Bestellung\?/);
    expect(mail.text).toMatch(/Olivia Owner · [^\n]+:\n {2}Unterwegs <b>heute<\/b>\./);
    expect(mail.text).not.toContain('A note only agents see.');
    expect(mail.html).toContain('Unterwegs &#60;b&#62;heute&#60;/b&#62;.');
    expect(mail.replyTo?.value[0].address).toMatch(/^reply\+[a-z2-7]{32}@reply\.acme\.example$/);
    expect(header(mail, 'list-unsubscribe')).toMatch(
      /^<https:\/\/chat\.acme\.example\/api\/email\/unsubscribe\/[a-z2-7]{32}>$/,
    );
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The log says `sent` once the SMTP server's answer is back at the app, which may be a moment
    // after the server has handed the mail to this test (CI saw `queued` in between).
    const log = await eventually(async () => {
      const { rows } = await db.query<{ status: string }>(
        `SELECT kind, status, conversation_id::int AS conversation_id FROM mail_log
         WHERE recipient = 'grace@example.com'`,
      );
      return rows.every((row) => row.status !== 'queued') && rows;
    });
    expect(log).toEqual([
      { kind: 'transcript', status: 'sent', conversation_id: session.conversation_id },
    ]);

    // The address is now known: no email needed; then the fourth within the hour is a 429.
    await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(session.session_token))
      .send({})
      .expect(202);
    await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(session.session_token))
      .send({ conversation_id: session.conversation_id })
      .expect(202);
    const limited = await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(session.session_token))
      .send({})
      .expect(429);
    expect(limited.body).toMatchObject({
      status: false,
      code: '429',
      error_code: 'rate_limited',
      message: 'Too Many Attempts.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Another visitor's conversation is not found.
    const stranger = await init(org);
    await request(app.url)
      .post('/api/widget/transcript')
      .set(bearer(stranger.session_token))
      .send({ email: 'x@example.com', conversation_id: session.conversation_id })
      .expect(404);
  });

  it('mails the transcript when a chat closes, where the site asks for it', async () => {
    const owner = await registerOrganization(app.url, 'Closer');
    const chat = async (email: string) => {
      const session = await init(owner);
      await request(app.url)
        .post('/api/widget/email')
        .set(bearer(session.session_token))
        .send({ email })
        .expect(200);
      await request(app.url)
        .post('/api/widget/messages')
        .set(bearer(session.session_token))
        .send({ body: 'Thanks, bye.' })
        .expect(201);
      return session;
    };
    const before = await chat('early@example.com');
    await request(app.url)
      .post(`/api/agent/conversations/${before.conversation_id}/close`)
      .set(bearer(owner.token))
      .expect(200);

    await patchSite({ transcripts: { on_close: true } }, owner).expect(200);
    const after = await chat('late@example.com');
    await request(app.url)
      .post('/api/widget/end-chat')
      .set(bearer(after.session_token))
      .send({})
      .expect(200);
    const mail = await simpleParser((await smtp.next('late@example.com')).raw);
    expect(mail.subject).toBe('Your conversation with Closer');
    expect(mail.text).toMatch(/You · [^\n]+:\n {2}Thanks, bye\./);
    // The chat closed before the setting was on got none.
    expect(smtp.mails.some((m) => m.to.includes('early@example.com'))).toBe(false);
  });
});
