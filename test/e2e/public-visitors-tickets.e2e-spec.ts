import type { Pool } from 'pg';
import request from 'supertest';
import { createVisitor, type VisitorRecord } from '../factories/chat';
import {
  addMember,
  createApiKey,
  createSite,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { runCli } from '../utils/cli';
import { startTestApp, type TestApp } from '../utils/test-app';

const TICKET_NUMBER = /^TKT-(\d{4})-(\d{6})$/;

describe('public API: visitors and tickets', () => {
  let suite: TestApp;
  let databaseUrl: string;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  let secondSiteId: number;
  let key: string;
  let otherKey: string;
  let alice: VisitorRecord;
  let bob: VisitorRecord;
  let anonymous: VisitorRecord;
  let percent: VisitorRecord;
  let stranger: VisitorRecord;

  beforeAll(async () => {
    ({ app, db, databaseUrl } = suite = await startTestApp({
      PUBLIC_URL: 'https://chat.example.test',
      // The suite sends far more than 120 requests a minute with one key; the limit has its own tests.
      RATE_LIMIT_PER_MINUTE: '100000',
    }));
    org = await registerOrganization(app.url);
    other = await registerOrganization(app.url, 'Other');
    secondSiteId = (await createSite(app.url, org.token, { name: 'Shop' })).id;
    const abilities = ['visitors:read', 'tickets:read', 'tickets:write'];
    ({ key } = await createApiKey(app.url, org.token, abilities));
    ({ key: otherKey } = await createApiKey(app.url, other.token, abilities));

    const base = { organizationId: org.organization.id };
    alice = await createVisitor(db, {
      ...base,
      siteId: org.site.id,
      name: 'Alice Anders',
      email: 'alice@example.com',
      country: 'DE',
      language: 'de',
      lastSeenAt: new Date('2026-03-04T05:06:07.000Z'),
    });
    bob = await createVisitor(db, {
      ...base,
      siteId: secondSiteId,
      name: 'Bob Brown',
      email: 'bob_b@shop.test',
    });
    anonymous = await createVisitor(db, { ...base, siteId: org.site.id });
    percent = await createVisitor(db, { ...base, siteId: secondSiteId, name: 'Percy 100% Sure' });
    stranger = await createVisitor(db, {
      organizationId: other.organization.id,
      siteId: other.site.id,
      name: 'Alice Elsewhere',
      email: 'alice@elsewhere.test',
    });
  });

  afterAll(() => suite?.stop());

  const get = (url: string, apiKey = key) => request(app.url).get(url).set('X-Service-Key', apiKey);
  const post = (url: string, body: object, apiKey = key) =>
    request(app.url).post(url).set('Authorization', `Bearer ${apiKey}`).send(body);
  const patch = (url: string, body: object, apiKey = key) =>
    request(app.url).patch(url).set('Authorization', `Bearer ${apiKey}`).send(body);
  const ids = (body: { data: { id: number }[] }) => body.data.map((item) => item.id);

  const createTicket = async (body: object = {}, apiKey = key) => {
    const res = await post(
      '/api/v1/tickets',
      { subject: 'Help', description: 'It broke.', ...body },
      apiKey,
    ).expect(201);
    return res.body.data as {
      id: number;
      ticket_number: string;
      subject: string;
      status: string;
      priority: string;
      source: string;
    };
  };

  const outbox = async (type: string, ticketId: number) => {
    const { rows } = await db.query<{ organization_id: string; payload: Record<string, unknown> }>(
      `SELECT organization_id, payload FROM outbox_events
       WHERE event_type = $1 AND (payload->>'ticket_id' = $2 OR payload->'ticket'->>'id' = $2)
       ORDER BY id`,
      [type, String(ticketId)],
    );
    return rows;
  };

  const setPlan = (organizationId: number, plan: string) => {
    const result = runCli(['org:plan', String(organizationId), plan], {
      DATABASE_URL: databaseUrl,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  };

  describe('abilities', () => {
    it.each([
      ['visitors:read', 'get', '/api/v1/visitors'],
      ['visitors:read', 'get', '/api/v1/visitors/1'],
      ['tickets:read', 'get', '/api/v1/tickets'],
      ['tickets:read', 'get', '/api/v1/tickets/1'],
      ['tickets:write', 'post', '/api/v1/tickets'],
      ['tickets:write', 'patch', '/api/v1/tickets/1/status'],
    ])('needs %s for %s %s (403 naming the ability otherwise)', async (ability, method, url) => {
      const others = ['visitors:read', 'tickets:read', 'tickets:write', 'sites:read'].filter(
        (candidate) => candidate !== ability,
      );
      const { key: weak } = await createApiKey(app.url, org.token, others);
      const res =
        method === 'get'
          ? await get(url, weak)
          : method === 'post'
            ? await post(url, { subject: 'S', description: 'D' }, weak)
            : await patch(url, { status: 'closed' }, weak);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        status: false,
        code: '403',
        error_code: 'missing_ability',
        message: `API key missing required ability: ${ability}`,
      });
    });

    it('answers 401 without a key', async () => {
      await request(app.url).get('/api/v1/visitors').expect(401);
      await request(app.url).post('/api/v1/tickets').send({}).expect(401);
    });
  });

  describe('visitors', () => {
    it('lists the organization’s visitors newest first in the documented shape', async () => {
      const res = await get('/api/v1/visitors').expect(200);
      expect(res.body).toMatchObject({
        status: true,
        code: '200',
        current_page: 1,
        per_page: 50,
        total: 4,
        last_page: 1,
      });
      expect(ids(res.body)).toEqual([percent.id, anonymous.id, bob.id, alice.id]);
      expect(ids(res.body)).not.toContain(stranger.id);
      expect(res.body.data[3]).toEqual({
        id: alice.id,
        visitor_uid: alice.visitor_uid,
        site_id: org.site.id,
        name: 'Alice Anders',
        email: 'alice@example.com',
        country: 'DE',
        language: 'de',
        last_seen_at: '2026-03-04T05:06:07.000Z',
      });
      expect(res.body.data[1]).toEqual({
        id: anonymous.id,
        visitor_uid: anonymous.visitor_uid,
        site_id: org.site.id,
        name: null,
        email: null,
        country: null,
        language: null,
        last_seen_at: null,
      });
    });

    it('filters by site_id', async () => {
      const first = await get(`/api/v1/visitors?site_id=${org.site.id}`).expect(200);
      expect(ids(first.body)).toEqual([anonymous.id, alice.id]);
      const second = await get(`/api/v1/visitors?site_id=${secondSiteId}`).expect(200);
      expect(ids(second.body)).toEqual([percent.id, bob.id]);
      const foreign = await get(`/api/v1/visitors?site_id=${other.site.id}`).expect(200);
      expect(foreign.body).toMatchObject({ data: [], total: 0 });
    });

    it.each([
      ['site_id=abc', 'site_id'],
      ['site_id=0', 'site_id'],
      ['site_id=-2', 'site_id'],
      ['site_id=1.5', 'site_id'],
      ['search=<256 characters>', 'search'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
    ])('answers 422 for %s naming %s', async (label, field) => {
      const query = label.replace('<256 characters>', 'x'.repeat(256));
      const res = await get(`/api/v1/visitors?${query}`).expect(422);
      expect(res.body).toMatchObject({ status: false, error_code: 'validation_failed' });
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('searches name, email and visitor UID case-insensitively', async () => {
      const search = async (text: string) =>
        ids((await get(`/api/v1/visitors?search=${encodeURIComponent(text)}`).expect(200)).body);
      expect(await search('aLiCe')).toEqual([alice.id]);
      expect(await search('anders')).toEqual([alice.id]);
      expect(await search('SHOP.TEST')).toEqual([bob.id]);
      expect(await search('example.com')).toEqual([alice.id]);
      expect(await search(anonymous.visitor_uid.slice(9, 23).toUpperCase())).toEqual([
        anonymous.id,
      ]);
      expect(await search(bob.visitor_uid)).toEqual([bob.id]);
      expect(await search('nobody-like-this')).toEqual([]);
      // The other organization's Alice is never found.
      expect(await search('elsewhere')).toEqual([]);
    });

    it('treats % and _ in the search as literal characters', async () => {
      const search = async (text: string) =>
        (await get(`/api/v1/visitors?search=${encodeURIComponent(text)}`).expect(200)).body;
      expect(ids(await search('%'))).toEqual([percent.id]);
      expect(ids(await search('100%'))).toEqual([percent.id]);
      // As wildcards these would match "Alice Anders" and "Bob Brown".
      expect(await search('a%s')).toMatchObject({ data: [], total: 0 });
      expect(ids(await search('b_b'))).toEqual([bob.id]);
      expect(ids(await search('_'))).toEqual([bob.id]);
      expect(ids(await search('\\'))).toEqual([]);
    });

    it('combines search, site_id and pagination, keeping the filters in the links', async () => {
      const res = await get(`/api/v1/visitors?site_id=${org.site.id}&per_page=1`).expect(200);
      expect(res.body).toMatchObject({ total: 2, per_page: 1, last_page: 2 });
      expect(ids(res.body)).toEqual([anonymous.id]);
      expect(res.body.links).toEqual({
        first: `https://chat.example.test/api/v1/visitors?site_id=${org.site.id}&per_page=1&page=1`,
        last: `https://chat.example.test/api/v1/visitors?site_id=${org.site.id}&per_page=1&page=2`,
        prev: null,
        next: `https://chat.example.test/api/v1/visitors?site_id=${org.site.id}&per_page=1&page=2`,
      });
      const second = await get(`/api/v1/visitors?site_id=${org.site.id}&per_page=1&page=2`);
      expect(ids(second.body)).toEqual([alice.id]);
      const both = await get(`/api/v1/visitors?site_id=${secondSiteId}&search=brown`).expect(200);
      expect(ids(both.body)).toEqual([bob.id]);
      const past = await get('/api/v1/visitors?page=5').expect(200);
      expect(past.body).toMatchObject({ data: [], total: 4, current_page: 5, last_page: 1 });
    });

    it('reads one visitor with its started conversations and tickets counted', async () => {
      // A visitor has one open conversation at most; earlier ones are closed.
      const conversation = (visitor: VisitorRecord, started: boolean, status = 'waiting') =>
        db.query(
          `INSERT INTO conversations (organization_id, site_id, visitor_id, started_at, status)
           VALUES ($1, $2, $3, $4, $5)`,
          [
            visitor.organization_id,
            visitor.site_id,
            visitor.id,
            started ? new Date() : null,
            status,
          ],
        );
      await conversation(alice, true, 'closed');
      await conversation(alice, true, 'closed');
      await conversation(alice, false);
      await conversation(bob, true);
      await createTicket({ visitor_id: alice.id });
      await createTicket({ visitor_id: alice.id });
      await createTicket({ visitor_id: bob.id });

      const res = await get(`/api/v1/visitors/${alice.id}`).expect(200);
      const expected = {
        id: alice.id,
        visitor_uid: alice.visitor_uid,
        site_id: org.site.id,
        name: 'Alice Anders',
        email: 'alice@example.com',
        country: 'DE',
        language: 'de',
        last_seen_at: '2026-03-04T05:06:07.000Z',
        conversations_count: 2,
        tickets_count: 2,
      };
      expect(res.body.data).toEqual(expected);
      expect(res.body).toMatchObject({ status: true, code: '200', ...expected });

      const empty = await get(`/api/v1/visitors/${anonymous.id}`).expect(200);
      expect(empty.body.data).toMatchObject({ conversations_count: 0, tickets_count: 0 });
    });

    it("answers 404 for another organization's visitor and for bad ids", async () => {
      for (const id of [String(stranger.id), 'abc', '0', '999999999', '1e3']) {
        const res = await get(`/api/v1/visitors/${id}`).expect(404);
        expect(res.body).toMatchObject({ message: 'Not found.', error_code: 'not_found' });
      }
      await get(`/api/v1/visitors/${alice.id}`, otherKey).expect(404);
    });
  });

  describe('ticket creation', () => {
    it('creates an open api ticket with normal priority on the first site', async () => {
      const res = await post('/api/v1/tickets', {
        subject: 'Cannot log in',
        description: 'The login form spins forever.',
      }).expect(201);
      expect(res.body).toMatchObject({
        status: true,
        code: '201',
        message: 'Ticket created.',
      });
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        ticket_number: expect.stringMatching(TICKET_NUMBER),
        subject: 'Cannot log in',
        status: 'open',
        priority: 'normal',
        source: 'api',
      });
      const [, year] = TICKET_NUMBER.exec(res.body.data.ticket_number as string) ?? [];
      expect(Number(year)).toBe(new Date().getUTCFullYear());

      const detail = await get(`/api/v1/tickets/${res.body.data.id}`).expect(200);
      expect(detail.body.data).toEqual({
        ...res.body.data,
        description: 'The login form spins forever.',
        site_id: org.site.id,
        visitor_id: null,
        customer_name: null,
        customer_email: null,
        assigned_agent_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        comments: [],
      });
      expect(new Date(detail.body.data.created_at as string).toISOString()).toBe(
        detail.body.data.created_at,
      );
    });

    it('takes priority, site, visitor and customer fields', async () => {
      const ticket = await createTicket({
        subject: 'Refund',
        description: 'Please refund order 42.',
        priority: 'urgent',
        site_id: secondSiteId,
        visitor_id: bob.id,
        customer_name: 'Robert Brown',
        customer_email: 'robert@example.com',
      });
      expect(ticket).toMatchObject({ priority: 'urgent', status: 'open', source: 'api' });
      const detail = await get(`/api/v1/tickets/${ticket.id}`).expect(200);
      // The customer fields are used only when no visitor is linked (the spec): Bob's own stay.
      expect(detail.body.data).toMatchObject({
        site_id: secondSiteId,
        visitor_id: bob.id,
        customer_name: 'Bob Brown',
        customer_email: 'bob_b@shop.test',
      });
    });

    it('fills the customer fields from a linked visitor when they are left out', async () => {
      const ticket = await createTicket({ visitor_id: alice.id });
      const detail = await get(`/api/v1/tickets/${ticket.id}`).expect(200);
      expect(detail.body.data).toMatchObject({
        visitor_id: alice.id,
        customer_name: 'Alice Anders',
        customer_email: 'alice@example.com',
      });
    });

    it('names every missing required field', async () => {
      const res = await post('/api/v1/tickets', {}).expect(422);
      expect(res.body).toMatchObject({
        status: false,
        code: '422',
        error_code: 'validation_failed',
      });
      expect(Object.keys(res.body.errors).sort()).toEqual(['description', 'subject']);
    });

    it.each([
      ['subject', 'empty', { subject: '' }],
      ['subject', '256 characters', { subject: 'x'.repeat(256) }],
      ['subject', 'a number', { subject: 42 }],
      ['description', 'empty', { description: '' }],
      ['description', '10001 characters', { description: 'x'.repeat(10001) }],
      ['priority', 'critical', { priority: 'critical' }],
      ['site_id', 'a word', { site_id: 'one' }],
      ['site_id', '0', { site_id: 0 }],
      ['site_id', '1.5', { site_id: 1.5 }],
      ['site_id', 'beyond 2^53', { site_id: 1e20 }],
      ['visitor_id', 'a numeric string', { visitor_id: '7' }],
      ['visitor_id', '-1', { visitor_id: -1 }],
      ['customer_name', '256 characters', { customer_name: 'x'.repeat(256) }],
      ['customer_name', 'a number', { customer_name: 5 }],
      ['customer_email', 'not an address', { customer_email: 'not-an-email' }],
    ])('answers 422 naming %s when it is %s', async (field, _label, body) => {
      const res = await post('/api/v1/tickets', {
        subject: 'S',
        description: 'D',
        ...body,
      }).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('accepts the longest subject and description', async () => {
      await createTicket({ subject: 's'.repeat(255), description: 'd'.repeat(10000) });
    });

    it("answers 422 for another organization's site or visitor, and for unknown ones", async () => {
      for (const [field, value] of [
        ['site_id', other.site.id],
        ['site_id', 99_999_999],
        ['visitor_id', stranger.id],
        ['visitor_id', 99_999_999],
      ] as const) {
        const res = await post('/api/v1/tickets', {
          subject: 'S',
          description: 'D',
          [field]: value,
        }).expect(422);
        expect(res.body.errors).toEqual({ [field]: [expect.any(String)] });
      }
    });

    it('writes ticket.created to the outbox with the ticket', async () => {
      const ticket = await createTicket({ subject: 'Outbox', priority: 'high' });
      const rows = await outbox('ticket.created', ticket.id);
      expect(rows).toHaveLength(1);
      expect(rows[0].organization_id).toBe(String(org.organization.id));
      expect(rows[0].payload).toEqual({
        organization_id: org.organization.id,
        ticket: {
          id: ticket.id,
          ticket_number: ticket.ticket_number,
          subject: 'Outbox',
          status: 'open',
          priority: 'high',
          source: 'api',
        },
      });
    });

    it('refuses with 403 feature_not_in_plan when ticketing is not on the plan', async () => {
      const free = await registerOrganization(app.url, 'Free');
      const { key: freeKey } = await createApiKey(app.url, free.token, [
        'tickets:read',
        'tickets:write',
      ]);
      setPlan(free.organization.id, 'free');
      const res = await post('/api/v1/tickets', { subject: 'S', description: 'D' }, freeKey).expect(
        403,
      );
      expect(res.body).toMatchObject({
        status: false,
        code: '403',
        error_code: 'feature_not_in_plan',
        message: expect.stringContaining('Ticketing'),
      });
      const { rows } = await db.query(
        `SELECT
           (SELECT count(*)::int FROM tickets WHERE organization_id = $1) AS tickets,
           (SELECT count(*)::int FROM outbox_events
             WHERE organization_id = $1 AND event_type LIKE 'ticket.%') AS events`,
        [free.organization.id],
      );
      expect(rows[0]).toEqual({ tickets: 0, events: 0 });
      // Reading stays allowed.
      await get('/api/v1/tickets', freeKey).expect(200);

      setPlan(free.organization.id, 'pro');
      await createTicket({}, freeKey);
    });

    it('numbers 20 concurrent tickets distinctly and consecutively, per organization', async () => {
      const fresh = await registerOrganization(app.url, 'Busy');
      const { key: freshKey } = await createApiKey(app.url, fresh.token, [
        'tickets:read',
        'tickets:write',
      ]);
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, index) => createTicket({ subject: `T${index}` }, freshKey)),
      );
      const numbers = created.map((ticket) => ticket.ticket_number);
      expect(new Set(numbers).size).toBe(20);
      const year = new Date().getUTCFullYear();
      expect([...numbers].sort()).toEqual(
        Array.from(
          { length: 20 },
          (_, index) => `TKT-${year}-${String(index + 1).padStart(6, '0')}`,
        ),
      );
      // Another organization's sequence is its own.
      const elsewhere = await createTicket({}, otherKey);
      expect(elsewhere.ticket_number).toBe(`TKT-${year}-000001`);

      // Past 999 999 the number grows a digit rather than wrapping or being cut.
      await db.query(
        `UPDATE ticket_sequences SET last_value = 999999 WHERE organization_id = $1 AND year = $2`,
        [fresh.organization.id, year],
      );
      const millionth = await createTicket({}, freshKey);
      expect(millionth.ticket_number).toBe(`TKT-${year}-1000000`);
    });
  });

  describe('ticket reading', () => {
    let readerOrg: Registered;
    let readerKey: string;
    const made: Record<string, number> = {};

    beforeAll(async () => {
      readerOrg = await registerOrganization(app.url, 'Reader');
      ({ key: readerKey } = await createApiKey(app.url, readerOrg.token, [
        'tickets:read',
        'tickets:write',
      ]));
      for (const [name, priority, status] of [
        ['a', 'low', 'open'],
        ['b', 'high', 'pending'],
        ['c', 'high', 'resolved'],
        ['d', 'urgent', 'open'],
        ['e', 'normal', 'closed'],
      ] as const) {
        const ticket = await createTicket({ subject: name, priority }, readerKey);
        if (status !== 'open')
          await patch(`/api/v1/tickets/${ticket.id}/status`, { status }, readerKey).expect(200);
        made[name] = ticket.id;
      }
    });

    const list = async (query = '') =>
      (await get(`/api/v1/tickets${query}`, readerKey).expect(200)).body;

    it('lists tickets newest first in the documented shape', async () => {
      const body = await list();
      expect(body).toMatchObject({ total: 5, per_page: 50, current_page: 1, last_page: 1 });
      expect(ids(body)).toEqual([made.e, made.d, made.c, made.b, made.a]);
      expect(body.data[4]).toEqual({
        id: made.a,
        ticket_number: expect.stringMatching(TICKET_NUMBER),
        subject: 'a',
        status: 'open',
        priority: 'low',
        source: 'api',
        created_at: expect.any(String),
      });
    });

    it('filters by status, by priority and by both', async () => {
      expect(ids(await list('?status=open'))).toEqual([made.d, made.a]);
      expect(ids(await list('?status=in_progress'))).toEqual([]);
      expect(ids(await list('?priority=high'))).toEqual([made.c, made.b]);
      expect(ids(await list('?status=pending&priority=high'))).toEqual([made.b]);
      expect(ids(await list('?status=closed&priority=low'))).toEqual([]);
    });

    it('paginates with links that keep the filters', async () => {
      const body = await list('?priority=high&per_page=1&page=2');
      expect(body).toMatchObject({ total: 2, per_page: 1, current_page: 2, last_page: 2 });
      expect(ids(body)).toEqual([made.b]);
      expect(body.links).toEqual({
        first: 'https://chat.example.test/api/v1/tickets?priority=high&per_page=1&page=1',
        last: 'https://chat.example.test/api/v1/tickets?priority=high&per_page=1&page=2',
        prev: 'https://chat.example.test/api/v1/tickets?priority=high&per_page=1&page=1',
        next: null,
      });
    });

    it.each([
      ['status=new', 'status'],
      ['priority=critical', 'priority'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=-1', 'page'],
    ])('answers 422 for %s naming %s', async (query, field) => {
      const res = await get(`/api/v1/tickets?${query}`, readerKey).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('reads a ticket with its comments oldest first', async () => {
      for (const [body, internal] of [
        ['First reply', false],
        ['Note to self', true],
      ] as const) {
        await db.query(
          `INSERT INTO ticket_comments (organization_id, ticket_id, author_type, body, is_internal)
           VALUES ($1, $2, 'agent', $3, $4)`,
          [readerOrg.organization.id, made.a, body, internal],
        );
      }
      const res = await get(`/api/v1/tickets/${made.a}`, readerKey).expect(200);
      expect(res.body.data.comments).toEqual([
        {
          id: expect.any(Number),
          body: 'First reply',
          is_internal: false,
          created_at: expect.any(String),
        },
        {
          id: expect.any(Number),
          body: 'Note to self',
          is_internal: true,
          created_at: expect.any(String),
        },
      ]);
      expect(res.body.data.comments[0].id).toBeLessThan(res.body.data.comments[1].id);
      // The ticket sits under data only.
      expect(res.body.id).toBeUndefined();
    });

    it("never shows another organization's tickets", async () => {
      const body = (await get('/api/v1/tickets?per_page=100', otherKey).expect(200)).body;
      expect(ids(body)).not.toContain(made.a);
      for (const id of [String(made.a), 'abc', '0', '999999999']) {
        const res = await get(`/api/v1/tickets/${id}`, otherKey).expect(404);
        expect(res.body).toMatchObject({ message: 'Not found.', error_code: 'not_found' });
      }
    });
  });

  describe('ticket status', () => {
    const setStatus = (ticketId: number | string, body: object, apiKey = key) =>
      patch(`/api/v1/tickets/${ticketId}/status`, body, apiKey);

    it('moves between any statuses, emitting ticket.status_changed only on a change', async () => {
      const ticket = await createTicket();
      const res = await setStatus(ticket.id, { status: 'pending' }).expect(200);
      expect(res.body).toMatchObject({
        status: true,
        code: '200',
        data: { id: ticket.id, status: 'pending' },
      });
      expect(res.body.data).toEqual({ id: ticket.id, status: 'pending' });

      await setStatus(ticket.id, { status: 'pending' }).expect(200);
      await setStatus(ticket.id, { status: 'closed' }).expect(200);
      await setStatus(ticket.id, { status: 'open' }).expect(200);

      const events = await outbox('ticket.status_changed', ticket.id);
      expect(events.map((row) => row.payload)).toEqual([
        { organization_id: org.organization.id, ticket_id: ticket.id, from: 'open', to: 'pending' },
        {
          organization_id: org.organization.id,
          ticket_id: ticket.id,
          from: 'pending',
          to: 'closed',
        },
        { organization_id: org.organization.id, ticket_id: ticket.id, from: 'closed', to: 'open' },
      ]);
      expect(events.every((row) => row.organization_id === String(org.organization.id))).toBe(true);

      const detail = await get(`/api/v1/tickets/${ticket.id}`).expect(200);
      expect(detail.body.data.status).toBe('open');
      expect(detail.body.data.updated_at > detail.body.data.created_at).toBe(true);
    });

    it('emits nothing when the status does not change', async () => {
      const ticket = await createTicket();
      await setStatus(ticket.id, { status: 'open' }).expect(200);
      expect(await outbox('ticket.status_changed', ticket.id)).toEqual([]);
    });

    it.each([
      [{}, 'status'],
      [{ status: 'done' }, 'status'],
      [{ status: 'closed', agent_user_id: 'me' }, 'agent_user_id'],
      [{ status: 'closed', agent_user_id: 0 }, 'agent_user_id'],
    ])('answers 422 for %j naming %s', async (body, field) => {
      const ticket = await createTicket();
      const res = await setStatus(ticket.id, body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('accepts an agent_user_id of an active member', async () => {
      const member = await addMember(app.url, org.token, 'agent');
      const ticket = await createTicket();
      await setStatus(ticket.id, { status: 'in_progress', agent_user_id: member.id }).expect(200);
    });

    it('refuses an agent_user_id of another organization or of a removed member', async () => {
      const ticket = await createTicket();
      const foreign = await setStatus(ticket.id, {
        status: 'resolved',
        agent_user_id: other.user.id,
      }).expect(422);
      expect(Object.keys(foreign.body.errors)).toEqual(['agent_user_id']);

      const leaver = await addMember(app.url, org.token, 'agent');
      await request(app.url)
        .delete(`/api/agent/team/${leaver.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);
      const removed = await setStatus(ticket.id, {
        status: 'resolved',
        agent_user_id: leaver.id,
      }).expect(422);
      expect(Object.keys(removed.body.errors)).toEqual(['agent_user_id']);

      const unknown = await setStatus(ticket.id, {
        status: 'resolved',
        agent_user_id: 99_999_999,
      }).expect(422);
      expect(Object.keys(unknown.body.errors)).toEqual(['agent_user_id']);

      // Nothing changed.
      const detail = await get(`/api/v1/tickets/${ticket.id}`).expect(200);
      expect(detail.body.data.status).toBe('open');
      expect(await outbox('ticket.status_changed', ticket.id)).toEqual([]);
    });

    it("needs agent_user_id once the key's creator has left the organization", async () => {
      const admin = await addMember(app.url, org.token, 'admin');
      const { key: adminKey } = await createApiKey(app.url, admin.token, [
        'tickets:read',
        'tickets:write',
      ]);
      const ticket = await createTicket({}, adminKey);
      await setStatus(ticket.id, { status: 'pending' }, adminKey).expect(200);

      await request(app.url)
        .delete(`/api/agent/team/${admin.id}`)
        .set('Authorization', `Bearer ${org.token}`)
        .expect(200);

      const res = await setStatus(ticket.id, { status: 'closed' }, adminKey).expect(422);
      expect(res.body).toMatchObject({ error_code: 'validation_failed' });
      expect(Object.keys(res.body.errors)).toEqual(['agent_user_id']);
      await setStatus(ticket.id, { status: 'closed', agent_user_id: org.user.id }, adminKey).expect(
        200,
      );
      expect(
        (await outbox('ticket.status_changed', ticket.id)).map((row) => row.payload.to),
      ).toEqual(['pending', 'closed']);
    });

    it("answers 404 for another organization's ticket and for bad ids", async () => {
      const ticket = await createTicket();
      for (const id of [String(ticket.id), 'abc', '0', '999999999']) {
        const res = await setStatus(id, { status: 'closed' }, otherKey).expect(404);
        expect(res.body).toMatchObject({ message: 'Not found.', error_code: 'not_found' });
      }
      const detail = await get(`/api/v1/tickets/${ticket.id}`).expect(200);
      expect(detail.body.data.status).toBe('open');
    });
  });
});
