import { randomBytes } from 'node:crypto';
import { createPostgresBackend, Queue, setDefaultBackendFactory } from 'bullmq';
import type { Pool } from 'pg';
import request from 'supertest';
import {
  addMember,
  confirmAddress,
  registerOrganization,
  type Registered,
  uniqueEmail,
} from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { runCli } from '../utils/cli';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import { linkIn, type SmtpCapture, startSmtp, subjectIs } from '../utils/smtp';
import { startReceiver } from '../utils/webhook-receiver';

interface Login {
  email: string;
  token: string;
  userId: string;
}

const newPassword = () => `pw-${randomBytes(8).toString('hex')}`;

/** Registers an organization whose owner has the given address, logged in. */
async function registerWith(url: string, email: string, name: string): Promise<Login> {
  const res = await request(url)
    .post('/api/agent/auth/register')
    .send({ organization_name: name, name: 'Pat Platform', email, password: newPassword() })
    .expect(201);
  return { email, token: res.body.token as string, userId: String(res.body.user.id) };
}

/**
 * Platform administration (DESIGN section 13): administrators by user id (`admin:grant` of an
 * existing login) or by PLATFORM_ADMIN_EMAILS for a login that signed up itself and confirmed
 * that address by the mailed link; organizations (search, usage, plan, subscription end, suspend
 * and resume: the widget answers 402 and members see why), queue health with failed jobs retried
 * or removed, running instances, failing webhook endpoints and mail failures; anyone else gets
 * 404 on every route; every action in the operator log, by the acting user's id.
 */
describe('platform administration', () => {
  let databaseUrl: string;
  let app: AppProcess;
  let db: Pool;
  let smtp: SmtpCapture;
  let listedAdmin: Login;
  let grantedAdmin: Login;
  let customer: Registered;
  let other: Registered;
  const listedEmail = uniqueEmail('ops');
  // Also listed: addresses another owner's member, an invited member and a late sign-up take.
  const addedEmail = uniqueEmail('ops-added');
  const invitedEmail = uniqueEmail('ops-invited');
  const lateEmail = uniqueEmail('ops-late');
  const as = (login: { token: string }) => ({ Authorization: `Bearer ${login.token}` });

  const routes = (organizationId: number): [string, string][] => [
    ['get', '/api/platform/organizations'],
    ['get', `/api/platform/organizations/${organizationId}`],
    ['patch', `/api/platform/organizations/${organizationId}`],
    ['post', `/api/platform/organizations/${organizationId}/suspend`],
    ['post', `/api/platform/organizations/${organizationId}/resume`],
    ['get', '/api/platform/queues'],
    ['post', '/api/platform/queues/missed-chats/jobs/1/retry'],
    ['delete', '/api/platform/queues/missed-chats/jobs/1'],
    ['get', '/api/platform/webhooks/failing'],
    ['get', '/api/platform/mail/failed'],
    ['get', '/api/platform/instances'],
  ];

  const operatorLog = async (action: string) =>
    (
      await db.query<{
        actor_type: string;
        actor_id: string | null;
        actor_login_id: string | null;
        actor_email: string | null;
        target_id: string;
        changes: Record<string, { from: unknown; to: unknown }>;
        request_id: string | null;
      }>(`SELECT * FROM platform_operator_log WHERE action = $1 ORDER BY id`, [action])
    ).rows;

  /** The login (what administrator rights follow) of a member. */
  const loginOf = async (userId: string) =>
    (await db.query<{ login_id: string }>(`SELECT login_id FROM users WHERE id = $1`, [userId]))
      .rows[0].login_id;

  /** `npm run cli -- ...` on this suite's database. */
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: databaseUrl });

  const logIn = async (email: string, password: string) => {
    const res = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email, password })
      .expect(200);
    return { token: res.body.token as string };
  };

  /** No administrator: `me` says so, and every console route answers 404. */
  const expectShutOut = async (login: { token: string }) => {
    const me = await request(app.url).get('/api/agent/me').set(as(login)).expect(200);
    expect(me.body.platform_admin).toBe(false);
    for (const [method, route] of routes(customer.organization.id)) {
      const res = await request(app.url)[method as 'get'](route).set(as(login)).send({});
      expect([method, route, res.status]).toEqual([method, route, 404]);
    }
  };

  /** The endpoint's delivery still waiting for a retry. */
  const pendingDelivery = async (endpointId: number) =>
    (
      await db.query<{ id: string }>(
        `SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'`,
        [endpointId],
      )
    ).rows[0].id;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = pool(databaseUrl);
    // The mail-failure test's mail is refused for good, as a real server refuses a mailbox.
    smtp = await startSmtp(0, subjectIs(/^Test mail from/));
    app = await startApp({
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      PLATFORM_ADMIN_EMAILS: [listedEmail, addedEmail, invitedEmail, lateEmail].join(','),
    });
    // The operators' own sign-up, its address confirmed as its person does: the mailed link.
    listedAdmin = await registerWith(app.url, listedEmail, 'Platform Operators');
    await confirmAddress(app.url, smtp, listedEmail);
    customer = await registerOrganization(app.url, 'Customer Co');
    other = await registerOrganization(app.url, 'Other Org');
  });

  afterAll(async () => {
    await app?.stop();
    await smtp?.close();
    await db?.end();
    await dropTestDatabase(databaseUrl);
  });

  it('answers 404, not 401 or 403, to anyone but a platform administrator', async () => {
    const member = await addMember(app.url, customer.token, 'admin');
    for (const [method, route] of routes(customer.organization.id)) {
      for (const headers of [{}, as(customer), as(member), { Authorization: 'Bearer nonsense' }]) {
        const res = await request(app.url)[method as 'get'](route).set(headers).send({});
        expect([method, route, res.status]).toEqual([method, route, 404]);
        expect(res.body.error_code).toBe('not_found');
      }
    }
  });

  it('admits a confirmed sign-up named in PLATFORM_ADMIN_EMAILS, and a login granted by `admin:grant`', async () => {
    await request(app.url).get('/api/platform/organizations').set(as(listedAdmin)).expect(200);
    // The dashboard shows its Admin entry from `platform_admin`.
    const me = await request(app.url).get('/api/agent/me').set(as(listedAdmin)).expect(200);
    expect(me.body.platform_admin).toBe(true);
    const notMe = await request(app.url).get('/api/agent/me').set(as(customer)).expect(200);
    expect(notMe.body.platform_admin).toBe(false);

    const email = uniqueEmail('granted');
    grantedAdmin = await registerWith(app.url, email, 'Granted Operator');
    await request(app.url).get('/api/platform/instances').set(as(grantedAdmin)).expect(404);
    const loginId = await loginOf(grantedAdmin.userId);
    const granted = cli('admin:grant', email.toUpperCase());
    expect(granted.stderr).toBe('');
    expect(granted.status).toBe(0);
    expect(granted.stdout).toContain(`${email} (login ${loginId}) is now a platform administrator`);
    // The operator is told what a grant of an address nobody confirmed means.
    expect(granted.stdout).toContain('no mailed link ever confirmed this address');
    await request(app.url).get('/api/platform/instances').set(as(grantedAdmin)).expect(200);
    expect(cli('admin:grant', email).stdout).toContain('was already');
    // The grant and its log line name the login, not the address.
    expect((await db.query(`SELECT login_id::text, granted_by FROM platform_admins`)).rows).toEqual(
      [{ login_id: loginId, granted_by: 'cli' }],
    );
    expect(await operatorLog('platform_admin.granted')).toEqual([
      expect.objectContaining({
        actor_type: 'cli',
        target_id: loginId,
        changes: { email },
      }),
    ]);

    const revoked = cli('admin:revoke', email);
    expect(revoked.stdout).toContain('is no longer');
    expect(await operatorLog('platform_admin.revoked')).toEqual([
      expect.objectContaining({ actor_type: 'cli', target_id: loginId }),
    ]);
    await request(app.url).get('/api/platform/instances').set(as(grantedAdmin)).expect(404);
    expect(cli('admin:grant').status).toBe(2);
    cli('admin:grant', email);
  });

  it('never admits by address a member another owner added or invited, even once its mailbox proved it', async () => {
    const owner = await registerOrganization(app.url, 'Squatters');
    await confirmAddress(app.url, smtp, owner.user.email);
    // An owner adds a member at a listed address, with a password of its own choosing.
    const password = newPassword();
    await request(app.url)
      .post('/api/agent/team')
      .set(as(owner))
      .send({ name: 'Not Ops', email: addedEmail, role: 'admin', password })
      .expect(201);
    await expectShutOut(await logIn(addedEmail, password));
    // The address's person takes the login over by the mailed reset link: still not an
    // administrator by address (the login is another owner's making; `admin:grant` it is).
    await request(app.url)
      .post('/api/agent/auth/password-reset')
      .send({ email: addedEmail })
      .expect(202);
    const reset = await linkIn(
      await smtp.next(addedEmail, subjectIs(/^Reset your/)),
      '/reset-password',
    );
    const taken = newPassword();
    await request(app.url)
      .post('/api/agent/auth/password-reset/confirm')
      .send({ token: reset.searchParams.get('token'), password: taken })
      .expect(200);
    await expectShutOut(await logIn(addedEmail, taken));

    // An invitation reached the listed mailbox, but another owner brought the member in.
    await request(app.url)
      .post('/api/agent/team/invitations')
      .set(as(owner))
      .send({ email: invitedEmail, role: 'admin' })
      .expect(201);
    const invitation = await linkIn(
      await smtp.next(invitedEmail, subjectIs(/^You are invited/)),
      '/accept-invite',
    );
    const accepted = await request(app.url)
      .post('/api/agent/auth/accept-invite')
      .send({ token: invitation.searchParams.get('token'), name: 'Ivy', password: newPassword() })
      .expect(201);
    await expectShutOut({ token: accepted.body.token as string });
  });

  it('refuses to `admin:grant` an address no login has: whoever registers it later is no administrator', async () => {
    const email = uniqueEmail('ops-to-be');
    const refused = cli('admin:grant', email);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`no login has the address ${email}`);
    const stranger = await registerWith(app.url, email, 'Strangers');
    await expectShutOut(stranger);
    const revoke = cli('admin:revoke', uniqueEmail('nobody'));
    expect(revoke.status).toBe(1);
    expect(revoke.stderr).toContain('no login has the address');
  });

  it('admits a sign-up at a listed address only once it confirmed the address by the mailed link', async () => {
    const late = await registerWith(app.url, lateEmail, 'Late Operators');
    await expectShutOut(late);
    await confirmAddress(app.url, smtp, lateEmail);
    const me = await request(app.url).get('/api/agent/me').set(as(late)).expect(200);
    expect(me.body.platform_admin).toBe(true);
    await request(app.url).get('/api/platform/organizations').set(as(late)).expect(200);
  });

  it('lists and searches organizations with their usage, paginated', async () => {
    const all = await request(app.url)
      .get('/api/platform/organizations')
      .set(as(listedAdmin))
      .expect(200);
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    expect(all.body.data.map((o: { id: number }) => o.id)).toEqual(
      [...all.body.data.map((o: { id: number }) => o.id)].sort((a, b) => b - a),
    );

    const found = await request(app.url)
      .get('/api/platform/organizations')
      .query({ q: 'customer co' })
      .set(as(listedAdmin))
      .expect(200);
    expect(found.body.data).toEqual([
      expect.objectContaining({
        id: customer.organization.id,
        name: 'Customer Co',
        plan: 'business',
        suspended_at: null,
        usage: { members: 2, sites: 1, conversations_this_month: 0, storage_bytes: 0 },
      }),
    ]);
    // By a member's address, and by id; LIKE's wildcards match only themselves.
    const byEmail = await request(app.url)
      .get('/api/platform/organizations')
      .query({ q: other.user.email.toUpperCase() })
      .set(as(listedAdmin))
      .expect(200);
    expect(byEmail.body.data.map((o: { id: number }) => o.id)).toEqual([other.organization.id]);
    const byId = await request(app.url)
      .get('/api/platform/organizations')
      .query({ q: String(other.organization.id) })
      .set(as(listedAdmin))
      .expect(200);
    expect(byId.body.data.map((o: { id: number }) => o.id)).toContain(other.organization.id);
    const wildcard = await request(app.url)
      .get('/api/platform/organizations')
      .query({ q: '%' })
      .set(as(listedAdmin))
      .expect(200);
    expect(wildcard.body.total).toBe(0);

    const paged = await request(app.url)
      .get('/api/platform/organizations')
      .query({ per_page: 1, page: 2 })
      .set(as(listedAdmin))
      .expect(200);
    expect(paged.body).toMatchObject({ current_page: 2, per_page: 1, data: [expect.anything()] });
    expect(paged.body.links.prev).toContain('/api/platform/organizations?');
    await request(app.url)
      .get('/api/platform/organizations')
      .query({ per_page: 101 })
      .set(as(listedAdmin))
      .expect(422);

    // A conversation this month counts.
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: customer.site.widget_key })
        .expect(200)
    ).body as { session_token: string };
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Hello' })
      .expect(201);
    const one = await request(app.url)
      .get(`/api/platform/organizations/${customer.organization.id}`)
      .set(as(listedAdmin))
      .expect(200);
    expect(one.body.data.usage.conversations_this_month).toBe(1);
    await request(app.url)
      .get('/api/platform/organizations/999999999')
      .set(as(listedAdmin))
      .expect(404);
  });

  it("changes an organization's plan and subscription end, and logs who did it", async () => {
    const ends = '2031-01-31T00:00:00.000Z';
    const res = await request(app.url)
      .patch(`/api/platform/organizations/${other.organization.id}`)
      .set(as(listedAdmin))
      .send({ plan: 'free', subscription_ends_at: ends })
      .expect(200);
    expect(res.body.data).toMatchObject({ plan: 'free', subscription_ends_at: ends });
    const me = await request(app.url).get('/api/agent/me').set(as(other)).expect(200);
    expect(me.body.organization).toMatchObject({ plan: 'free', subscription_ends_at: ends });

    const cleared = await request(app.url)
      .patch(`/api/platform/organizations/${other.organization.id}`)
      .set(as(listedAdmin))
      .send({ subscription_ends_at: null })
      .expect(200);
    expect(cleared.body.data).toMatchObject({ plan: 'free', subscription_ends_at: null });

    for (const body of [{ plan: 'gold' }, { subscription_ends_at: 'next week' }]) {
      await request(app.url)
        .patch(`/api/platform/organizations/${other.organization.id}`)
        .set(as(listedAdmin))
        .send(body)
        .expect(422);
    }
    // The acting user's id (and its login's, what its rights follow); the address only to read.
    expect(await operatorLog('organization.updated')).toEqual([
      expect.objectContaining({
        actor_type: 'user',
        actor_id: listedAdmin.userId,
        actor_login_id: await loginOf(listedAdmin.userId),
        actor_email: listedEmail,
        target_id: String(other.organization.id),
        changes: {
          plan: { from: 'business', to: 'free' },
          subscription_ends_at: { from: null, to: ends },
        },
        request_id: expect.any(String),
      }),
      expect.objectContaining({
        changes: { subscription_ends_at: { from: ends, to: null } },
      }),
    ]);
  });

  it('suspends an organization: its widget answers 402 and its members see why; resume undoes it', async () => {
    const reason = 'Payment overdue since 1 November. Contact billing@example.com.';
    await request(app.url)
      .post(`/api/platform/organizations/${other.organization.id}/suspend`)
      .set(as(listedAdmin))
      .send({})
      .expect(422);
    const suspended = await request(app.url)
      .post(`/api/platform/organizations/${other.organization.id}/suspend`)
      .set(as(listedAdmin))
      .send({ reason })
      .expect(200);
    expect(suspended.body.data).toMatchObject({
      suspended_at: expect.any(String),
      suspension_reason: reason,
    });

    const refused = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: other.site.widget_key })
      .expect(402);
    expect(refused.body).toMatchObject({ status: false, error_code: 'organization_suspended' });
    const me = await request(app.url).get('/api/agent/me').set(as(other)).expect(200);
    expect(me.body.organization).toMatchObject({
      suspended_at: suspended.body.data.suspended_at,
      suspension_reason: reason,
    });
    // Another organization's widget is not affected.
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: customer.site.widget_key })
      .expect(200);

    const resumed = await request(app.url)
      .post(`/api/platform/organizations/${other.organization.id}/resume`)
      .set(as(listedAdmin))
      .expect(200);
    expect(resumed.body.data).toMatchObject({ suspended_at: null, suspension_reason: null });
    await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: other.site.widget_key })
      .expect(200);
    expect((await operatorLog('organization.suspended'))[0].changes.suspension_reason).toEqual({
      from: null,
      to: reason,
    });
    expect(await operatorLog('organization.resumed')).toHaveLength(1);
  });

  it('shows queue health, and retries or removes a failed job by hand', async () => {
    // A job its worker cannot run (the ids are not numbers): it fails on its first attempt.
    setDefaultBackendFactory(createPostgresBackend);
    const queue = new Queue('missed-chats', { connection: { connectionString: databaseUrl } });
    let jobId: string;
    try {
      const job = await queue.add('broken', { organizationId: 'x', conversationId: 'y' });
      jobId = String(job.id);
      await eventually(async () => (await job.getState()) === 'failed');
    } finally {
      await queue.close();
    }
    const health = async () =>
      (await request(app.url).get('/api/platform/queues').set(as(listedAdmin)).expect(200)).body
        .data as {
        queues: {
          name: string;
          failed: number;
          waiting: number;
          oldest_waiting_seconds: number;
          failed_jobs: { id: string; failed_reason: string | null; attempts_made: number }[];
        }[];
        outbox: { pending: number; lag_seconds: number; failed: number };
      };
    const before = await health();
    expect(before.queues.map((q) => q.name).sort()).toEqual([
      'agent-notifications',
      'audit-retention',
      'content-import',
      'conversation-mail',
      'mail-retention',
      'missed-chats',
      'outgoing-mail',
      'visitor-retention',
      'webhook-deliveries',
    ]);
    const missed = () => before.queues.find((q) => q.name === 'missed-chats')!;
    expect(missed().failed).toBe(1);
    expect(missed().failed_jobs).toEqual([
      expect.objectContaining({ id: jobId, failed_reason: expect.any(String), attempts_made: 1 }),
    ]);
    expect(before.outbox).toEqual({
      pending: expect.any(Number),
      lag_seconds: expect.any(Number),
      failed: 0,
    });

    const retried = await request(app.url)
      .post(`/api/platform/queues/missed-chats/jobs/${jobId}/retry`)
      .set(as(listedAdmin))
      .expect(200);
    expect(retried.body.data).toEqual({ queue: 'missed-chats', id: jobId, state: 'waiting' });
    // It runs again, and fails again. The count and the list are two reads of the queue (CI saw
    // the list already holding the second failure while the count, read a moment before, still
    // had the job running): wait for both to say so.
    await eventually(async () => {
      const next = (await health()).queues.find((q) => q.name === 'missed-chats')!;
      return next.failed_jobs[0]?.attempts_made === 2 && next.failed === 1;
    });

    await request(app.url)
      .post('/api/platform/queues/no-such-queue/jobs/1/retry')
      .set(as(listedAdmin))
      .expect(404);
    await request(app.url)
      .post('/api/platform/queues/missed-chats/jobs/999999/retry')
      .set(as(listedAdmin))
      .expect(404);

    const removed = await request(app.url)
      .delete(`/api/platform/queues/missed-chats/jobs/${jobId}`)
      .set(as(listedAdmin))
      .expect(200);
    expect(removed.body.data).toEqual({ queue: 'missed-chats', id: jobId, state: 'removed' });
    expect((await health()).queues.find((q) => q.name === 'missed-chats')!.failed).toBe(0);
    await request(app.url)
      .delete(`/api/platform/queues/missed-chats/jobs/${jobId}`)
      .set(as(listedAdmin))
      .expect(404);

    // Only a failed job is retried, and a waiting one is not a failed one: 409.
    const waiting = new Queue('missed-chats', { connection: { connectionString: databaseUrl } });
    try {
      const timer = await waiting.add(
        'timer',
        { organizationId: '1', conversationId: '1' },
        {
          delay: 3_600_000,
        },
      );
      await request(app.url)
        .post(`/api/platform/queues/missed-chats/jobs/${timer.id}/retry`)
        .set(as(listedAdmin))
        .expect(409);
      await request(app.url)
        .delete(`/api/platform/queues/missed-chats/jobs/${timer.id}`)
        .set(as(listedAdmin))
        .expect(200);
    } finally {
      await waiting.close();
    }

    expect(await operatorLog('job.retried')).toEqual([
      expect.objectContaining({
        target_id: `missed-chats/${jobId}`,
        actor_id: listedAdmin.userId,
        actor_email: listedEmail,
      }),
    ]);
    expect((await operatorLog('job.removed')).map((entry) => entry.target_id)).toEqual([
      `missed-chats/${jobId}`,
      expect.stringMatching(/^missed-chats\//),
    ]);
  });

  it('lists failing webhook endpoints across organizations, with the last failure, until they recover', async () => {
    const receiver = await startReceiver(() => ({ status: 500, body: 'down for maintenance' }));
    try {
      const hook = await request(app.url)
        .post('/api/agent/webhooks')
        .set(as(other))
        .send({ url: `${receiver.url}/broken`, events: ['message.received'] })
        .expect(201);
      const endpointId = hook.body.data.id as number;
      const healthy = await startReceiver();
      await request(app.url)
        .post('/api/agent/webhooks')
        .set(as(customer))
        .send({ url: `${healthy.url}/fine`, events: ['message.received'] })
        .expect(201);
      try {
        for (const org of [other, customer]) {
          const session = await request(app.url)
            .post('/api/widget/init')
            .send({ widget_key: org.site.widget_key })
            .expect(200);
          await request(app.url)
            .post('/api/widget/messages')
            .set('Authorization', `Bearer ${session.body.session_token as string}`)
            .send({ body: 'Is anyone there?' })
            .expect(201);
        }
        const failing = async () =>
          (
            await request(app.url)
              .get('/api/platform/webhooks/failing')
              .set(as(listedAdmin))
              .expect(200)
          ).body.data as Record<string, unknown>[];
        const listed = await eventually(async () => {
          const rows = await failing();
          const row = rows.find((r) => r.id === endpointId);
          return row && row.last_status_code === 500 ? rows : undefined;
        }, 30_000);
        // Only the failing one: the customer's healthy endpoint is not listed.
        expect(listed).toEqual([
          {
            id: endpointId,
            organization: { id: other.organization.id, name: 'Other Org' },
            url: `${receiver.url}/broken`,
            is_active: true,
            failing_since: expect.any(String),
            disabled_at: null,
            disabled_reason: null,
            failed_last_day: 0,
            pending: 1,
            last_failure_at: expect.any(String),
            last_status_code: 500,
            last_error: null,
          },
        ]);
        await eventually(async () => healthy.received.length > 0);

        // A success ends the streak: the endpoint leaves the list.
        receiver.setReply(() => ({ status: 204 }));
        await request(app.url)
          .post(
            `/api/agent/webhooks/${endpointId}/deliveries/${await pendingDelivery(endpointId)}/redeliver`,
          )
          .set(as(other))
          .expect(202);
        await eventually(async () => (await failing()).length === 0, 30_000);
      } finally {
        await healthy.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it('lists the mails given up on, with their error and only the domain of their recipient', async () => {
    const before = (
      await request(app.url).get('/api/platform/mail/failed').set(as(listedAdmin)).expect(200)
    ).body.data as { failed_last_day: number };
    // The capture refuses the test mail with a 550: a permanent failure, given up at once.
    const queued = await request(app.url)
      .post('/api/agent/mail-log/test')
      .set(as(customer))
      .send({})
      .expect(201);
    const mailId = queued.body.data.id as number;
    const res = await eventually(async () => {
      const r = await request(app.url)
        .get('/api/platform/mail/failed')
        .set(as(listedAdmin))
        .expect(200);
      return (r.body.data.mails as { id: number }[]).some((mail) => mail.id === mailId)
        ? r
        : undefined;
    });
    expect(res.body.data.failed_last_day).toBe(before.failed_last_day + 1);
    expect(res.body.data.mails[0]).toEqual({
      id: mailId,
      organization: { id: customer.organization.id, name: 'Customer Co' },
      kind: 'test',
      recipient_domain: 'example.test',
      attempts: 1,
      last_error: expect.stringContaining('550 Mailbox unavailable'),
      created_at: expect.any(String),
      failed_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain(customer.user.email);
  });

  it('lists the running instances by their heartbeat', async () => {
    const res = await request(app.url)
      .get('/api/platform/instances')
      .set(as(listedAdmin))
      .expect(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        pid: expect.any(Number),
        workers_enabled: true,
        current: true,
        version: expect.any(String),
      }),
    ]);
    expect(Date.now() - Date.parse(res.body.data[0].last_seen_at)).toBeLessThan(60_000);
  });

  it('keeps the operator log append-only', async () => {
    await expect(db.query(`DELETE FROM platform_operator_log`)).rejects.toThrow(/append-only/);
    await expect(db.query(`UPDATE platform_operator_log SET action = 'x'`)).rejects.toThrow(
      /append-only/,
    );
  });
});
