import type { Pool } from 'pg';
import request from 'supertest';
import { createVisitor, type VisitorRecord } from '../factories/chat';
import { outboxEvents } from '../factories/conversations';
import {
  addMember,
  createApiKey,
  createSite,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const TICKET_NUMBER = /^TKT-\d{4}-\d{6}$/;
const BASE_URL = 'https://chat.example.test';

interface Ticket {
  id: number;
  ticket_number: string;
  status: string;
  priority: string;
  source: string;
  site_id: number;
  visitor_id: number | null;
  assigned_agent_id: number | null;
  conversation_id: number | null;
  created_at: string;
  updated_at: string;
  comments: Record<string, unknown>[];
}

describe('agent API: ticket desk', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  /** A member with the lowest role: the desk is open to every role. */
  let agent: { id: number; token: string };
  let colleague: { id: number; token: string };
  let secondSiteId: number;
  let alice: VisitorRecord;
  let stranger: VisitorRecord;

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ PUBLIC_URL: BASE_URL }));
    org = await registerOrganization(app.url);
    other = await registerOrganization(app.url, 'Other');
    agent = await addMember(app.url, org.token, 'agent');
    colleague = await addMember(app.url, org.token, 'agent');
    secondSiteId = (await createSite(app.url, org.token, { name: 'Shop' })).id;
    alice = await createVisitor(db, {
      organizationId: org.organization.id,
      siteId: secondSiteId,
      name: 'Alice Anders',
      email: 'alice@example.com',
    });
    stranger = await createVisitor(db, {
      organizationId: other.organization.id,
      siteId: other.site.id,
      name: 'Sam Stranger',
    });
  });

  afterAll(() => suite?.stop());

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
  });
  const desk = () => as(agent.token);
  const ids = (body: { data: { id: number }[] }) => body.data.map((item) => item.id);

  const createTicket = async (body: object = {}, token = agent.token): Promise<Ticket> => {
    const res = await as(token)
      .post('/api/agent/tickets', { subject: 'Help', description: 'It broke.', ...body })
      .expect(201);
    return res.body.data as Ticket;
  };
  const readTicket = async (id: number, token = agent.token): Promise<Ticket> =>
    (await as(token).get(`/api/agent/tickets/${id}`).expect(200)).body.data as Ticket;

  /** A member who has been removed from the organization (and so cannot be assigned). */
  const removedMember = async () => {
    const member = await addMember(app.url, org.token, 'agent');
    await request(app.url)
      .delete(`/api/agent/team/${member.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    return member;
  };

  /** The payloads of one event type about one ticket, oldest first. */
  const events = async (type: string, ticketId: number) =>
    (await outboxEvents(db, type)).filter(
      (payload) =>
        payload.ticket_id === ticketId ||
        (payload.ticket as { id?: number } | undefined)?.id === ticketId,
    );
  /** Every ticket event about one ticket, as `type` and payload, oldest first. */
  const allEvents = async (ticketId: number) => {
    const { rows } = await db.query<{ event_type: string; organization_id: string }>(
      `SELECT event_type, organization_id FROM outbox_events
       WHERE payload->>'ticket_id' = $1 OR payload->'ticket'->>'id' = $1 ORDER BY id`,
      [String(ticketId)],
    );
    return rows;
  };

  describe('authentication and tenancy', () => {
    it.each([
      ['get', '/api/agent/tickets'],
      ['post', '/api/agent/tickets'],
      ['get', '/api/agent/tickets/1'],
      ['patch', '/api/agent/tickets/1'],
      ['post', '/api/agent/tickets/1/comments'],
    ] as const)('answers 401 to %s %s without a token', async (method, url) => {
      const res = await request(app.url)[method](url);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        status: false,
        code: '401',
        error_code: 'unauthenticated',
        message: 'Unauthenticated.',
      });
    });

    it('answers 401 to a wrong token and to an API key', async () => {
      const { key } = await createApiKey(app.url, org.token, ['tickets:read', 'tickets:write']);
      for (const token of ['sca_not-a-real-token', key]) {
        await as(token).get('/api/agent/tickets').expect(401);
      }
    });

    it('accepts the session cookie set at login', async () => {
      const login = await request(app.url)
        .post('/api/agent/auth/login')
        .send({ email: org.user.email, password: org.password })
        .expect(200);
      const cookie = login.headers['set-cookie'] as unknown as string[];
      await request(app.url).get('/api/agent/tickets').set('Cookie', cookie).expect(200);
    });

    it("answers 404 on every route for another organization's ticket and for bad ids", async () => {
      const ticket = await createTicket();
      const foreign = as(other.token);
      const comment = { body: 'Hello' };
      for (const id of [String(ticket.id), 'abc', '0', '999999999']) {
        for (const res of [
          await foreign.get(`/api/agent/tickets/${id}`),
          await foreign.patch(`/api/agent/tickets/${id}`, { status: 'closed' }),
          await foreign.post(`/api/agent/tickets/${id}/comments`, comment),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body).toMatchObject({ message: 'Not found.', error_code: 'not_found' });
        }
      }
      // Nothing happened to the ticket.
      const after = await readTicket(ticket.id);
      expect(after).toMatchObject({ status: 'open', comments: [], updated_at: ticket.updated_at });
      expect((await allEvents(ticket.id)).map((row) => row.event_type)).toEqual(['ticket.created']);
      // The other organization's list does not show it.
      const list = await foreign.get('/api/agent/tickets?per_page=100').expect(200);
      expect(ids(list.body)).not.toContain(ticket.id);
    });
  });

  describe('turning a conversation into a ticket (issue 26)', () => {
    it("links the ticket to the chat both ways, with the chat's visitor and site", async () => {
      const chat = await startWidgetChat(app.url, org.site, ['My invoice is wrong'], {
        visitor_name: 'Walter',
        visitor_email: 'walter@example.test',
      });
      const created = await desk()
        .post('/api/agent/tickets', {
          subject: 'Wrong invoice',
          description: 'From the chat: my invoice is wrong',
          conversation_id: chat.id,
        })
        .expect(201);
      expect(created.body.data).toMatchObject({
        conversation_id: chat.id,
        visitor_id: chat.visitorId,
        site_id: org.site.id,
        customer_name: 'Walter',
        customer_email: 'walter@example.test',
        source: 'dashboard',
      });
      // The conversation finds its tickets.
      const linked = await desk().get(`/api/agent/tickets?conversation_id=${chat.id}`).expect(200);
      expect(linked.body.data.map((ticket: { id: number }) => ticket.id)).toEqual([
        created.body.data.id,
      ]);
      expect(linked.body.total).toBe(1);
      expect((await readTicket(created.body.data.id as number)).conversation_id).toBe(chat.id);

      // Another organization's conversation is not one to link.
      const theirs = await startWidgetChat(app.url, other.site, ['Hi']);
      const refused = await desk()
        .post('/api/agent/tickets', {
          subject: 'Theirs',
          description: 'Nope',
          conversation_id: theirs.id,
        })
        .expect(422);
      expect(Object.keys(refused.body.errors)).toEqual(['conversation_id']);
    });
  });

  describe('creating', () => {
    it('opens an unassigned dashboard ticket on the first site and announces it', async () => {
      const res = await desk()
        .post('/api/agent/tickets', { subject: 'Printer on fire', description: 'Smoke.' })
        .expect(201);
      expect(res.body).toMatchObject({ status: true, code: '201', message: 'Ticket created.' });
      const ticket = res.body.data as Ticket;
      expect(ticket).toEqual({
        id: expect.any(Number),
        ticket_number: expect.stringMatching(TICKET_NUMBER),
        subject: 'Printer on fire',
        description: 'Smoke.',
        status: 'open',
        priority: 'normal',
        source: 'dashboard',
        site_id: org.site.id,
        visitor_id: null,
        customer_name: null,
        customer_email: null,
        assigned_agent_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        comments: [],
        conversation_id: null,
        // Its history starts with who filed it.
        activity: [
          {
            id: expect.any(Number),
            kind: 'created',
            from: null,
            to: 'open',
            actor_type: 'agent',
            actor_id: agent.id,
            created_at: expect.any(String),
          },
        ],
      });
      expect(await readTicket(ticket.id)).toEqual(ticket);

      expect(await events('ticket.created', ticket.id)).toEqual([
        {
          organization_id: org.organization.id,
          ticket: {
            id: ticket.id,
            ticket_number: ticket.ticket_number,
            subject: 'Printer on fire',
            status: 'open',
            priority: 'normal',
            source: 'dashboard',
          },
        },
      ]);
      expect(await allEvents(ticket.id)).toEqual([
        { event_type: 'ticket.created', organization_id: String(org.organization.id) },
      ]);
    });

    it('takes every field and, when assigned, also announces ticket.assigned', async () => {
      const ticket = await createTicket({
        subject: 'Refund',
        description: 'Please refund order 42.',
        priority: 'urgent',
        site_id: secondSiteId,
        visitor_id: alice.id,
        customer_name: 'Alice A.',
        customer_email: 'alice.a@example.com',
        assigned_agent_id: colleague.id,
      });
      expect(ticket).toMatchObject({
        subject: 'Refund',
        description: 'Please refund order 42.',
        priority: 'urgent',
        source: 'dashboard',
        site_id: secondSiteId,
        visitor_id: alice.id,
        customer_name: 'Alice A.',
        customer_email: 'alice.a@example.com',
        assigned_agent_id: colleague.id,
      });
      expect((await allEvents(ticket.id)).map((row) => row.event_type)).toEqual([
        'ticket.created',
        'ticket.assigned',
      ]);
      expect(await events('ticket.assigned', ticket.id)).toEqual([
        {
          organization_id: org.organization.id,
          ticket_id: ticket.id,
          assigned_agent_id: colleague.id,
          previous_agent_id: null,
        },
      ]);
    });

    it('fills the customer from a linked visitor; a null assignee means unassigned', async () => {
      const ticket = await createTicket({ visitor_id: alice.id, assigned_agent_id: null });
      expect(ticket).toMatchObject({
        site_id: org.site.id,
        priority: 'normal',
        visitor_id: alice.id,
        customer_name: 'Alice Anders',
        customer_email: 'alice@example.com',
        assigned_agent_id: null,
      });
      expect(await events('ticket.assigned', ticket.id)).toEqual([]);

      const bare = await createTicket();
      expect(bare).toMatchObject({ visitor_id: null, customer_name: null });
    });

    it('lets an owner file tickets as well', async () => {
      const ticket = await createTicket({}, org.token);
      expect(ticket.source).toBe('dashboard');
    });

    it('accepts the longest subject and description', async () => {
      await createTicket({ subject: 's'.repeat(255), description: 'd'.repeat(10000) });
    });

    it.each([
      ['subject', 'missing', { subject: undefined }],
      ['subject', 'empty', { subject: '' }],
      ['subject', '256 characters', { subject: 'x'.repeat(256) }],
      ['description', 'missing', { description: undefined }],
      ['description', '10001 characters', { description: 'x'.repeat(10001) }],
      ['priority', 'critical', { priority: 'critical' }],
      ['site_id', 'a word', { site_id: 'one' }],
      ['visitor_id', '0', { visitor_id: 0 }],
      // null is a value only where the document says nullable (issue 16): not for these
      ['visitor_id', 'null', { visitor_id: null }],
      ['site_id', 'null', { site_id: null }],
      ['priority', 'null', { priority: null }],
      ['customer_name', 'null', { customer_name: null }],
      ['customer_email', 'not an address', { customer_email: 'nope' }],
      ['assigned_agent_id', 'a numeric string', { assigned_agent_id: '7' }],
      ['assigned_agent_id', '0', { assigned_agent_id: 0 }],
      ['assigned_agent_id', '1.5', { assigned_agent_id: 1.5 }],
    ])('answers 422 naming %s when it is %s', async (field, _label, body) => {
      const res = await desk()
        .post('/api/agent/tickets', { subject: 'S', description: 'D', ...body })
        .expect(422);
      expect(res.body).toMatchObject({
        status: false,
        code: '422',
        error_code: 'validation_failed',
      });
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it("answers 422 for another organization's or unknown site, visitor and assignee, writing nothing", async () => {
      const leaver = await removedMember();
      const count = async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM tickets WHERE organization_id = $1`,
            [org.organization.id],
          )
        ).rows[0].n;
      const before = await count();
      for (const [field, value] of [
        ['site_id', other.site.id],
        ['site_id', 99_999_999],
        ['visitor_id', stranger.id],
        ['visitor_id', 99_999_999],
        ['assigned_agent_id', other.user.id],
        ['assigned_agent_id', 99_999_999],
        ['assigned_agent_id', leaver.id],
      ] as const) {
        const res = await desk()
          .post('/api/agent/tickets', { subject: 'S', description: 'D', [field]: value })
          .expect(422);
        expect(res.body.errors).toEqual({ [field]: [expect.stringContaining(field)] });
      }
      expect(await count()).toBe(before);
    });

    it('refuses with 403 feature_not_in_plan when ticketing is not on the plan', async () => {
      const free = await registerOrganization(app.url, 'Free');
      const earlier = await createTicket({}, free.token);
      await db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [
        free.organization.id,
      ]);
      const res = await as(free.token)
        .post('/api/agent/tickets', { subject: 'S', description: 'D' })
        .expect(403);
      expect(res.body).toMatchObject({
        status: false,
        code: '403',
        error_code: 'feature_not_in_plan',
        message: expect.stringContaining('Ticketing'),
      });
      // Nothing was filed or announced; the tickets the organization has stay workable.
      const listed = await as(free.token).get('/api/agent/tickets').expect(200);
      expect(ids(listed.body)).toEqual([earlier.id]);
      const created = await outboxEvents(db, 'ticket.created');
      expect(
        created.filter((payload) => payload.organization_id === free.organization.id),
      ).toHaveLength(1);
      await as(free.token)
        .patch(`/api/agent/tickets/${earlier.id}`, { status: 'closed' })
        .expect(200);
      await as(free.token)
        .post(`/api/agent/tickets/${earlier.id}/comments`, { body: 'Still here' })
        .expect(201);

      await db.query(`UPDATE organizations SET plan = 'pro' WHERE id = $1`, [free.organization.id]);
      await createTicket({}, free.token);
    });
  });

  describe('listing', () => {
    let deskOrg: Registered;
    let member: { id: number; token: string };
    const made: Record<string, Ticket> = {};
    const list = async (query = '') =>
      (await as(deskOrg.token).get(`/api/agent/tickets${query}`).expect(200)).body;

    beforeAll(async () => {
      deskOrg = await registerOrganization(app.url, 'Desk');
      member = await addMember(app.url, deskOrg.token, 'agent');
      const assignees = { owner: deskOrg.user.id, member: member.id, none: null };
      for (const [name, priority, status, assignee] of [
        ['a', 'low', 'open', 'none'],
        ['b', 'high', 'pending', 'member'],
        ['c', 'high', 'resolved', 'owner'],
        ['d', 'urgent', 'open', 'member'],
        ['e', 'normal', 'closed', 'none'],
      ] as const) {
        const ticket = await createTicket(
          { subject: name, priority, assigned_agent_id: assignees[assignee] },
          deskOrg.token,
        );
        made[name] =
          status === 'open'
            ? ticket
            : ((
                await as(deskOrg.token)
                  .patch(`/api/agent/tickets/${ticket.id}`, { status })
                  .expect(200)
              ).body.data as Ticket);
      }
    });

    it('lists tickets newest first with the desk fields', async () => {
      const body = await list();
      expect(body).toMatchObject({
        status: true,
        code: '200',
        total: 5,
        per_page: 50,
        current_page: 1,
        last_page: 1,
      });
      expect(ids(body)).toEqual(['e', 'd', 'c', 'b', 'a'].map((name) => made[name].id));
      expect(body.data[3]).toEqual({
        id: made.b.id,
        ticket_number: made.b.ticket_number,
        subject: 'b',
        status: 'pending',
        priority: 'high',
        source: 'dashboard',
        site_id: deskOrg.site.id,
        visitor_id: null,
        customer_name: null,
        customer_email: null,
        assigned_agent_id: member.id,
        created_at: made.b.created_at,
        updated_at: made.b.updated_at,
      });
    });

    it('filters by status, priority and assignee, alone and together, each with its total', async () => {
      const names = async (query: string) => {
        const body = await list(query);
        // The total comes from the trigger-kept ticket_totals, the rows from tickets.
        expect([query, body.total]).toEqual([query, body.data.length]);
        return body.data.map((item: { subject: string }) => item.subject).join('');
      };
      expect(await names('?status=open')).toBe('da');
      expect(await names('?status=in_progress')).toBe('');
      expect(await names('?priority=high')).toBe('cb');
      expect(await names(`?assigned_agent_id=${member.id}`)).toBe('db');
      expect(await names(`?assigned_agent_id=${deskOrg.user.id}`)).toBe('c');
      expect(await names(`?status=open&assigned_agent_id=${member.id}`)).toBe('d');
      expect(await names(`?status=pending&priority=high&assigned_agent_id=${member.id}`)).toBe('b');
      expect(await names(`?priority=low&assigned_agent_id=${member.id}`)).toBe('');
      // Someone else's agent has no tickets here.
      expect(await list(`?assigned_agent_id=${other.user.id}`)).toMatchObject({
        data: [],
        total: 0,
      });
    });

    it('paginates with absolute links that keep the filters', async () => {
      const first = await list('?per_page=2');
      expect(first).toMatchObject({ total: 5, per_page: 2, current_page: 1, last_page: 3 });
      expect(ids(first)).toEqual([made.e.id, made.d.id]);
      const filtered = await list(`?assigned_agent_id=${member.id}&per_page=1&page=2`);
      expect(filtered).toMatchObject({ total: 2, per_page: 1, current_page: 2, last_page: 2 });
      expect(ids(filtered)).toEqual([made.b.id]);
      const query = `assigned_agent_id=${member.id}&per_page=1`;
      expect(filtered.links).toEqual({
        first: `${BASE_URL}/api/agent/tickets?${query}&page=1`,
        last: `${BASE_URL}/api/agent/tickets?${query}&page=2`,
        prev: `${BASE_URL}/api/agent/tickets?${query}&page=1`,
        next: null,
      });
      const largest = await list('?per_page=100');
      expect(largest).toMatchObject({ per_page: 100, total: 5 });
      const past = await list('?page=9');
      expect(past).toMatchObject({ data: [], total: 5, current_page: 9, last_page: 1 });
    });

    it.each([
      ['status=new', 'status'],
      ['priority=critical', 'priority'],
      ['assigned_agent_id=abc', 'assigned_agent_id'],
      ['assigned_agent_id=0', 'assigned_agent_id'],
      ['assigned_agent_id=1.5', 'assigned_agent_id'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
    ])('answers 422 for %s naming %s', async (query, field) => {
      const res = await as(deskOrg.token).get(`/api/agent/tickets?${query}`).expect(422);
      expect(res.body).toMatchObject({ error_code: 'validation_failed' });
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it("never lists another organization's tickets", async () => {
      const body = await as(org.token).get('/api/agent/tickets?per_page=100').expect(200);
      const mine = Object.values(made).map((ticket) => ticket.id);
      expect(ids(body.body).filter((id) => mine.includes(id))).toEqual([]);
    });
  });

  describe('changing status, priority and assignee', () => {
    const update = (id: number, body: object, token = agent.token) =>
      as(token).patch(`/api/agent/tickets/${id}`, body);

    it('changes each field, announcing exactly what changed', async () => {
      const ticket = await createTicket({ priority: 'low' });

      const status = await update(ticket.id, { status: 'in_progress' }).expect(200);
      expect(status.body).toMatchObject({ status: true, code: '200', message: 'Ticket updated.' });
      expect(status.body.data).toEqual({
        ...ticket,
        status: 'in_progress',
        updated_at: expect.any(String),
        activity: expect.any(Array),
      });
      expect(status.body.data.updated_at > ticket.updated_at).toBe(true);

      const priority = await update(ticket.id, { priority: 'urgent' }).expect(200);
      expect(priority.body.data).toMatchObject({ status: 'in_progress', priority: 'urgent' });

      await update(ticket.id, { assigned_agent_id: agent.id }).expect(200);
      const reassigned = await update(ticket.id, { assigned_agent_id: colleague.id }).expect(200);
      expect(reassigned.body.data.assigned_agent_id).toBe(colleague.id);
      const unassigned = await update(ticket.id, { assigned_agent_id: null }).expect(200);
      expect(unassigned.body.data.assigned_agent_id).toBeNull();

      const organization_id = org.organization.id;
      const ticket_id = ticket.id;
      expect(await events('ticket.status_changed', ticket.id)).toEqual([
        { organization_id, ticket_id, from: 'open', to: 'in_progress' },
      ]);
      expect(await events('ticket.priority_changed', ticket.id)).toEqual([
        { organization_id, ticket_id, from: 'low', to: 'urgent' },
      ]);
      expect(await events('ticket.assigned', ticket.id)).toEqual([
        { organization_id, ticket_id, assigned_agent_id: agent.id, previous_agent_id: null },
        {
          organization_id,
          ticket_id,
          assigned_agent_id: colleague.id,
          previous_agent_id: agent.id,
        },
        {
          organization_id,
          ticket_id,
          assigned_agent_id: null,
          previous_agent_id: colleague.id,
        },
      ]);
      const rows = await allEvents(ticket.id);
      expect(rows.every((row) => row.organization_id === String(organization_id))).toBe(true);
      expect(await readTicket(ticket.id)).toEqual(unassigned.body.data);

      // The history says who changed what, oldest first (issue 26).
      const history = (
        unassigned.body.data as { activity: Record<string, unknown>[] }
      ).activity.map(({ kind, from, to, actor_type, actor_id }: Record<string, unknown>) => ({
        kind,
        from,
        to,
        actor_type,
        actor_id,
      }));
      const by = { actor_type: 'agent', actor_id: agent.id };
      expect(history).toEqual([
        { kind: 'created', from: null, to: 'open', ...by },
        { kind: 'status', from: 'open', to: 'in_progress', ...by },
        { kind: 'priority', from: 'low', to: 'urgent', ...by },
        { kind: 'assignee', from: null, to: String(agent.id), ...by },
        { kind: 'assignee', from: String(agent.id), to: String(colleague.id), ...by },
        { kind: 'assignee', from: String(colleague.id), to: null, ...by },
      ]);
    });

    it('changes all three at once, in one event per field', async () => {
      const ticket = await createTicket();
      const res = await update(ticket.id, {
        status: 'pending',
        priority: 'high',
        assigned_agent_id: agent.id,
      }).expect(200);
      expect(res.body.data).toMatchObject({
        status: 'pending',
        priority: 'high',
        assigned_agent_id: agent.id,
      });
      expect((await allEvents(ticket.id)).map((row) => row.event_type)).toEqual([
        'ticket.created',
        'ticket.status_changed',
        'ticket.priority_changed',
        'ticket.assigned',
      ]);
    });

    it('moves between any two statuses', async () => {
      const ticket = await createTicket();
      for (const status of ['closed', 'open', 'resolved', 'pending', 'in_progress', 'closed']) {
        const res = await update(ticket.id, { status }).expect(200);
        expect(res.body.data.status).toBe(status);
      }
      expect(
        (await events('ticket.status_changed', ticket.id)).map((payload) => payload.to),
      ).toEqual(['closed', 'open', 'resolved', 'pending', 'in_progress', 'closed']);
    });

    it('writes and announces nothing when no value changes', async () => {
      const ticket = await createTicket({ priority: 'high', assigned_agent_id: agent.id });
      const res = await update(ticket.id, {
        status: 'open',
        priority: 'high',
        assigned_agent_id: agent.id,
      }).expect(200);
      expect(res.body.data).toEqual(ticket);

      // Only the unchanged part of a mixed request is left out.
      await update(ticket.id, { status: 'open', priority: 'low' }).expect(200);
      const unassigned = await createTicket();
      await update(unassigned.id, { assigned_agent_id: null }).expect(200);

      expect((await allEvents(ticket.id)).map((row) => row.event_type)).toEqual([
        'ticket.created',
        'ticket.assigned',
        'ticket.priority_changed',
      ]);
      expect((await allEvents(unassigned.id)).map((row) => row.event_type)).toEqual([
        'ticket.created',
      ]);
      expect((await readTicket(unassigned.id)).updated_at).toBe(unassigned.updated_at);
    });

    it('returns the ticket with its comments', async () => {
      const ticket = await createTicket();
      await desk()
        .post(`/api/agent/tickets/${ticket.id}/comments`, { body: 'Looking into it' })
        .expect(201);
      const res = await update(ticket.id, { priority: 'high' }).expect(200);
      expect(res.body.data.comments).toEqual([
        expect.objectContaining({ body: 'Looking into it', author_id: agent.id }),
      ]);
    });

    it('answers 422 naming all three fields when none is given', async () => {
      const ticket = await createTicket();
      for (const body of [{}, { unknown: 'field' }]) {
        const res = await update(ticket.id, body).expect(422);
        expect(res.body).toMatchObject({ error_code: 'validation_failed' });
        expect(Object.keys(res.body.errors).sort()).toEqual([
          'assigned_agent_id',
          'priority',
          'status',
        ]);
      }
    });

    it.each([
      [{ status: 'done' }, 'status'],
      [{ status: null }, 'status'],
      [{ priority: 'critical' }, 'priority'],
      [{ priority: null }, 'priority'],
      [{ assigned_agent_id: 'me' }, 'assigned_agent_id'],
      [{ assigned_agent_id: 0 }, 'assigned_agent_id'],
      [{ status: 'closed', assigned_agent_id: -3 }, 'assigned_agent_id'],
    ])('answers 422 for %j naming %s', async (body, field) => {
      const ticket = await createTicket();
      const res = await update(ticket.id, body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('refuses an assignee of another organization, an unknown or a removed one, changing nothing', async () => {
      const leaver = await removedMember();
      const ticket = await createTicket();
      for (const assignee of [other.user.id, 99_999_999, leaver.id]) {
        const res = await update(ticket.id, {
          status: 'closed',
          assigned_agent_id: assignee,
        }).expect(422);
        expect(res.body.errors).toEqual({ assigned_agent_id: [expect.any(String)] });
      }
      expect(await readTicket(ticket.id)).toEqual(ticket);
      expect((await allEvents(ticket.id)).map((row) => row.event_type)).toEqual(['ticket.created']);
    });

    it('keeps the assignment history consistent under concurrent changes', async () => {
      const ticket = await createTicket();
      const assignees = [agent.id, colleague.id, org.user.id];
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          update(ticket.id, { assigned_agent_id: assignees[index % 3] }).expect(200),
        ),
      );
      const chain = await events('ticket.assigned', ticket.id);
      let previous: unknown = null;
      for (const payload of chain) {
        expect(payload.previous_agent_id).toBe(previous);
        expect(payload.assigned_agent_id).not.toBe(previous);
        previous = payload.assigned_agent_id;
      }
      expect((await readTicket(ticket.id)).assigned_agent_id).toBe(previous);
    });
  });

  describe('comments', () => {
    const comment = (id: number, body: object, token = agent.token) =>
      as(token).post(`/api/agent/tickets/${id}/comments`, body);

    it('adds a public comment by the agent, touching the ticket and announcing it', async () => {
      const ticket = await createTicket();
      const res = await comment(ticket.id, { body: 'We are on it.' }).expect(201);
      expect(res.body).toMatchObject({ status: true, code: '201', message: 'Comment added.' });
      expect(res.body.data).toEqual({
        id: expect.any(Number),
        body: 'We are on it.',
        is_internal: false,
        author_type: 'agent',
        author_id: agent.id,
        sender_mismatch: false,
        created_at: expect.any(String),
      });
      expect(await events('ticket.comment_added', ticket.id)).toEqual([
        {
          organization_id: org.organization.id,
          ticket_id: ticket.id,
          comment: { id: res.body.data.id, body: 'We are on it.', is_internal: false },
        },
      ]);
      const after = await readTicket(ticket.id);
      expect(after.updated_at > ticket.updated_at).toBe(true);
      expect(after.comments).toEqual([res.body.data]);
    });

    it('keeps internal notes apart from public replies, and shows both to agents oldest first', async () => {
      const ticket = await createTicket({ visitor_id: alice.id });
      const note = await comment(ticket.id, { body: 'Customer is a VIP', is_internal: true });
      expect(note.status).toBe(201);
      expect(note.body.data).toMatchObject({ is_internal: true, author_id: agent.id });
      // A visitor's reply, as the widget will store it.
      await db.query(
        `INSERT INTO ticket_comments (organization_id, ticket_id, author_type, author_id, body)
         VALUES ($1, $2, 'visitor', $3, 'Any news?')`,
        [org.organization.id, ticket.id, alice.id],
      );
      const reply = await comment(
        ticket.id,
        { body: 'Fixed.', is_internal: false },
        colleague.token,
      ).expect(201);

      const { comments } = await readTicket(ticket.id);
      expect(comments).toEqual([
        note.body.data,
        {
          id: expect.any(Number),
          body: 'Any news?',
          is_internal: false,
          author_type: 'visitor',
          author_id: alice.id,
          sender_mismatch: false,
          created_at: expect.any(String),
        },
        reply.body.data,
      ]);
      expect(
        (await events('ticket.comment_added', ticket.id)).map((payload) => payload.comment),
      ).toEqual([
        { id: note.body.data.id, body: 'Customer is a VIP', is_internal: true },
        { id: reply.body.data.id, body: 'Fixed.', is_internal: false },
      ]);
    });

    it('accepts a 10000-character comment', async () => {
      const ticket = await createTicket();
      await comment(ticket.id, { body: 'c'.repeat(10000) }).expect(201);
    });

    it.each([
      ['body', 'missing', {}],
      ['body', 'empty', { body: '' }],
      ['body', '10001 characters', { body: 'x'.repeat(10001) }],
      ['body', 'a number', { body: 42 }],
      ['is_internal', 'the string "true"', { body: 'Hi', is_internal: 'true' }],
      ['is_internal', '1', { body: 'Hi', is_internal: 1 }],
      ['is_internal', 'null', { body: 'Hi', is_internal: null }],
    ])('answers 422 naming %s when it is %s, adding nothing', async (field, _label, body) => {
      const ticket = await createTicket();
      const res = await comment(ticket.id, body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect((await readTicket(ticket.id)).comments).toEqual([]);
      expect(await events('ticket.comment_added', ticket.id)).toEqual([]);
    });
  });
});
