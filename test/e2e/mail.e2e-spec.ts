import { simpleParser } from 'mailparser';
import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, logged } from '../utils/app-process';
import { type CapturedMail, type SmtpCapture, startSmtp } from '../utils/smtp';
import { startTestApp, type TestApp } from '../utils/test-app';

interface MailLogEntry {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  message_id: string;
  site_id: number | null;
  sent_at: string | null;
}

/** Waits until `check` answers something other than undefined (polling every 100 ms). */
async function until<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Outgoing mail (DESIGN section 9) against a real local SMTP server: the mail log, the rendered
 * MIME (text and HTML parts, the site's name), retries while SMTP is down, and SMTP_URL unset.
 */
describe('outgoing mail', () => {
  let suite: TestApp;
  let app: AppProcess;
  let smtp: SmtpCapture;
  let org: Registered;

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const mailLog = async (token: string, query: Record<string, string> = {}) =>
    (await request(app.url).get('/api/agent/mail-log').query(query).set(bearer(token)).expect(200))
      .body as { data: MailLogEntry[]; total: number; links: { next: string | null } };
  const entry = async (token: string, id: number) =>
    (await mailLog(token, { per_page: '100' })).data.find((row) => row.id === id);
  const sendTest = async (token: string) =>
    (
      await request(app.url)
        .post('/api/agent/mail-log/test')
        .set(bearer(token))
        .send({})
        .expect(201)
    ).body as { data: MailLogEntry };

  // Sign-up also mails the owner an address confirmation (issue 28): these tests read test mails.
  const isTest = (mail: CapturedMail) => /^Subject: Test mail/m.test(mail.raw);

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app } = suite = await startTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'support@acme.example',
      PUBLIC_URL: 'https://chat.acme.example',
      MAIL_SEND_ATTEMPTS: '20',
      MAIL_RETRY_DELAY_MS: '200',
    }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterAll(async () => {
    await suite?.stop();
    await smtp?.close();
  });

  it('sends a test mail with a text and an HTML part, and logs it as sent', async () => {
    const queued = await sendTest(org.token);
    expect(queued.data).toMatchObject({
      kind: 'test',
      recipient: org.user.email,
      status: 'queued',
    });
    expect(queued.data.message_id).toMatch(/^<[0-9a-f-]{36}@chat\.acme\.example>$/);

    const mail = await simpleParser((await smtp.next(org.user.email, isTest)).raw);
    expect(mail.messageId).toBe(queued.data.message_id);
    expect(mail.from?.value[0]).toEqual({ name: 'Acme', address: 'support@acme.example' });
    expect(mail.subject).toBe('Test mail from Acme');
    expect(mail.text).toContain('This is a test mail');
    expect(mail.html).toContain('<!doctype html>');
    expect(mail.html).toContain('#2563eb');

    const sent = await until(async () => {
      const row = await entry(org.token, queued.data.id);
      return row?.status === 'sent' ? row : undefined;
    });
    expect(sent).toMatchObject({ attempts: 1, last_error: null, site_id: org.site.id });
    expect(sent.sent_at).not.toBeNull();
  });

  it('keeps a mail while SMTP is down and sends it once SMTP is back', async () => {
    const port = smtp.port;
    await smtp.close();
    const queued = await sendTest(org.token);
    const failing = await until(async () => {
      const row = await entry(org.token, queued.data.id);
      return row && row.attempts >= 2 ? row : undefined;
    });
    expect(failing.status).toBe('queued');
    expect(failing.last_error).toMatch(/ECONNREFUSED|connect/i);

    smtp = await startSmtp(port);
    const mail = await simpleParser((await smtp.next(org.user.email, isTest, 20_000)).raw);
    expect(mail.messageId).toBe(queued.data.message_id);
    const sent = await until(async () => {
      const row = await entry(org.token, queued.data.id);
      return row?.status === 'sent' ? row : undefined;
    });
    expect(sent.attempts).toBeGreaterThanOrEqual(3);
  });

  it('lists the log newest first, paginated, for owners and admins of the organization only', async () => {
    const first = await sendTest(org.token);
    const second = await sendTest(org.token);
    const page = await mailLog(org.token, { per_page: '1' });
    expect(page.data.map((row) => row.id)).toEqual([second.data.id]);
    expect(page.total).toBeGreaterThanOrEqual(4);
    expect(page.links.next).toContain('page=2');
    const next = await mailLog(org.token, { per_page: '1', page: '2' });
    expect(next.data.map((row) => row.id)).toEqual([first.data.id]);

    const admin = await addMember(app.url, org.token, 'admin');
    expect((await mailLog(admin.token)).total).toBe(page.total);
    const agent = await addMember(app.url, org.token, 'agent');
    await request(app.url).get('/api/agent/mail-log').set(bearer(agent.token)).expect(403);
    await request(app.url).get('/api/agent/mail-log').expect(401);

    // Another organization sees only its own: the confirmation mailed at its sign-up.
    const other = await registerOrganization(app.url, 'Other');
    expect((await mailLog(other.token)).data.map((row) => row.kind)).toEqual([
      'email_verification',
    ]);
    await request(app.url)
      .get('/api/agent/mail-log')
      .query({ per_page: '101' })
      .set(bearer(org.token))
      .expect(422);
  });
});

describe('outgoing mail without SMTP_URL', () => {
  let suite: TestApp;

  beforeAll(async () => {
    suite = await startTestApp({ SMTP_URL: '' });
  });

  afterAll(() => suite?.stop());

  it('logs the mail instead of sending it and keeps it in the mail log as failed', async () => {
    const org = await registerOrganization(suite.app.url, 'Quiet');
    const queued = await request(suite.app.url)
      .post('/api/agent/mail-log/test')
      .set({ Authorization: `Bearer ${org.token}` })
      .send({})
      .expect(201);
    const row = await until(async () => {
      const list = await request(suite.app.url)
        .get('/api/agent/mail-log')
        .set({ Authorization: `Bearer ${org.token}` })
        .expect(200);
      const found = (list.body as { data: MailLogEntry[] }).data.find(
        (mail) => mail.id === (queued.body as { data: MailLogEntry }).data.id,
      );
      return found?.status === 'failed' ? found : undefined;
    });
    expect(row).toMatchObject({ attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/SMTP_URL is unset/);
    await logged(
      suite.app,
      (entry) =>
        entry.msg === 'mail not sent (SMTP_URL unset)' &&
        String(entry.text).includes('This is a test mail'),
    );
  });

  it('has no HTTP door for incoming mail while INBOUND_EMAIL_TOKEN is unset (404)', async () => {
    await request(suite.app.url)
      .post('/api/inbound/email')
      .set({ Authorization: 'Bearer anything-at-all-0123456789', 'Content-Type': 'message/rfc822' })
      .send(Buffer.from('From: a@b.example\r\n\r\nhi\r\n'))
      .expect(404);
  });
});
