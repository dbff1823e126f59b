import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect } from '../utils/sockets';
import { startWidgetChat } from '../factories/widget-chat';

interface InboxItem {
  id: number;
  assigned_agent_id: number | null;
  labels: { id: number; name: string; color: string }[];
  last_message: { id: number; body: string; sender_type: string } | null;
  unread_count: number;
}

/** The dashboard's organizing tools: canned responses, labels, inbox views, search. */
describe('agent API: canned responses, labels, inbox views and search', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  let agent: { id: number; token: string };

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    put: (url: string, body: object) =>
      request(app.url).put(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
    delete: (url: string) => request(app.url).delete(url).set('Authorization', `Bearer ${token}`),
  });

  /** A visitor opens the widget and writes: a started, waiting conversation. */
  const startChat = (site: Registered['site'], name: string, ...bodies: string[]) =>
    startWidgetChat(app.url, site, bodies, {
      visitor_name: name,
      visitor_email: `${name}@example.com`,
    });

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    agent = await addMember(app.url, org.token, 'agent');
  });

  afterAll(() => suite?.stop());

  it('canned responses: admins write them, every agent reads them, q searches shortcut prefixes', async () => {
    const created = await as(org.token)
      .post('/api/agent/canned-responses', { shortcut: 'refund', body: 'Refunds take 5 days.' })
      .expect(201);
    expect(created.body).toMatchObject({
      message: 'Canned response created.',
      data: { shortcut: 'refund', body: 'Refunds take 5 days.', created_by_user_id: org.user.id },
    });
    await as(org.token)
      .post('/api/agent/canned-responses', { shortcut: 'refund-late', body: 'Sorry for the wait.' })
      .expect(201);
    await as(org.token)
      .post('/api/agent/canned-responses', { shortcut: 'hello', body: 'Hi there!' })
      .expect(201);

    const duplicate = await as(org.token)
      .post('/api/agent/canned-responses', { shortcut: 'refund', body: 'Again' })
      .expect(422);
    expect(duplicate.body.errors.shortcut).toEqual([
      'Another canned response already uses this shortcut.',
    ]);
    const badSlug = await as(org.token)
      .post('/api/agent/canned-responses', { shortcut: 'Not a slug', body: 'x' })
      .expect(422);
    expect(Object.keys(badSlug.body.errors)).toEqual(['shortcut']);

    // An agent reads, searches, but cannot write.
    const all = await as(agent.token).get('/api/agent/canned-responses').expect(200);
    expect(all.body.data.map((row: { shortcut: string }) => row.shortcut)).toEqual([
      'hello',
      'refund',
      'refund-late',
    ]);
    const refunds = await as(agent.token).get('/api/agent/canned-responses?q=REF').expect(200);
    expect(refunds.body.data.map((row: { shortcut: string }) => row.shortcut)).toEqual([
      'refund',
      'refund-late',
    ]);
    // LIKE wildcards are literal.
    const wildcard = await as(agent.token).get('/api/agent/canned-responses?q=%25').expect(200);
    expect(wildcard.body.data).toEqual([]);
    await as(agent.token)
      .post('/api/agent/canned-responses', { shortcut: 'mine', body: 'x' })
      .expect(403);

    const id = created.body.data.id as number;
    await as(agent.token).patch(`/api/agent/canned-responses/${id}`, { body: 'x' }).expect(403);
    const updated = await as(org.token)
      .patch(`/api/agent/canned-responses/${id}`, { body: 'Refunds take 3 days.' })
      .expect(200);
    expect(updated.body.data).toMatchObject({ shortcut: 'refund', body: 'Refunds take 3 days.' });
    await as(org.token)
      .patch(`/api/agent/canned-responses/${id}`, { shortcut: 'hello' })
      .expect(422);

    // Another organization sees none of them and reaches none of them.
    expect(
      (await as(other.token).get('/api/agent/canned-responses').expect(200)).body.data,
    ).toEqual([]);
    await as(other.token).patch(`/api/agent/canned-responses/${id}`, { body: 'x' }).expect(404);
    await as(other.token).delete(`/api/agent/canned-responses/${id}`).expect(404);
    // Shortcuts are per organization.
    await as(other.token)
      .post('/api/agent/canned-responses', { shortcut: 'refund', body: 'Ours' })
      .expect(201);

    await as(org.token).delete(`/api/agent/canned-responses/${id}`).expect(200);
    await as(org.token).delete(`/api/agent/canned-responses/${id}`).expect(404);
  });

  it('labels: managed by admins, set by agents, carried and filtered by the inbox', async () => {
    const billing = await as(org.token)
      .post('/api/agent/labels', { name: 'Billing', color: '#1f6feb' })
      .expect(201);
    const vip = await as(org.token)
      .post('/api/agent/labels', { name: 'vip', color: '#ff0000' })
      .expect(201);
    const taken = await as(org.token)
      .post('/api/agent/labels', { name: 'BILLING', color: '#000000' })
      .expect(422);
    expect(taken.body.errors.name).toEqual(['Another label already has this name.']);
    await as(org.token).post('/api/agent/labels', { name: 'x', color: 'red' }).expect(422);
    await as(agent.token).post('/api/agent/labels', { name: 'y', color: '#000000' }).expect(403);
    const foreign = await as(other.token)
      .post('/api/agent/labels', { name: 'Billing', color: '#000000' })
      .expect(201);

    const first = await startChat(org.site, 'ann', 'My invoice is wrong');
    const second = await startChat(org.site, 'bob', 'Hello');

    // A colleague's open dashboard hears the change.
    const colleague = await connect(`http://127.0.0.1:${app.port}`, '/agent', org.token);
    const pushed = colleague.next<{ conversation_id: number; labels: { name: string }[] }>(
      'conversation.labels',
      (data) => data.conversation_id === first.id,
    );
    const set = await as(agent.token)
      .put(`/api/agent/conversations/${first.id}/labels`, {
        label_ids: [billing.body.data.id, vip.body.data.id],
      })
      .expect(200);
    expect(set.body.data).toEqual({
      conversation_id: first.id,
      labels: [
        { id: billing.body.data.id, name: 'Billing', color: '#1f6feb' },
        { id: vip.body.data.id, name: 'vip', color: '#ff0000' },
      ],
    });
    expect((await pushed).labels.map((label) => label.name)).toEqual(['Billing', 'vip']);
    colleague.close();
    const detail = await as(agent.token).get(`/api/agent/conversations/${first.id}`).expect(200);
    expect(detail.body.data.labels).toEqual(set.body.data.labels);
    // Another organization's label is refused and changes nothing.
    const refused = await as(agent.token)
      .put(`/api/agent/conversations/${second.id}/labels`, { label_ids: [foreign.body.data.id] })
      .expect(422);
    expect(Object.keys(refused.body.errors)).toEqual(['label_ids']);
    await as(other.token)
      .put(`/api/agent/conversations/${first.id}/labels`, { label_ids: [] })
      .expect(404);
    await as(agent.token)
      .put(`/api/agent/conversations/${second.id}/labels`, { label_ids: ['x'] })
      .expect(422);

    const byId = await as(agent.token)
      .get(`/api/agent/conversations?label=${billing.body.data.id}`)
      .expect(200);
    expect(byId.body.data.map((row: InboxItem) => row.id)).toEqual([first.id]);
    expect(byId.body.total).toBe(1);
    const byName = await as(agent.token).get('/api/agent/conversations?label=billing').expect(200);
    expect(byName.body.data.map((row: InboxItem) => row.id)).toEqual([first.id]);
    expect(byName.body.data[0].labels.map((label: { name: string }) => label.name)).toEqual([
      'Billing',
      'vip',
    ]);
    // The other organization's label of the same name finds nothing of ours.
    const theirs = await as(other.token).get('/api/agent/conversations?label=billing').expect(200);
    expect(theirs.body.data).toEqual([]);

    // Replacing drops a label; deleting a label removes it everywhere.
    await as(agent.token)
      .put(`/api/agent/conversations/${first.id}/labels`, { label_ids: [vip.body.data.id] })
      .expect(200);
    const afterReplace = await as(agent.token).get('/api/agent/conversations?label=Billing');
    expect(afterReplace.body.data).toEqual([]);
    await as(org.token).patch(`/api/agent/labels/${vip.body.data.id}`, { name: 'VIP' }).expect(200);
    await as(org.token).delete(`/api/agent/labels/${vip.body.data.id}`).expect(200);
    const labels = await as(agent.token).get('/api/agent/labels').expect(200);
    expect(labels.body.data.map((label: { name: string }) => label.name)).toEqual(['Billing']);
    const all = await as(agent.token).get('/api/agent/conversations').expect(200);
    const item = all.body.data.find((row: InboxItem) => row.id === first.id) as InboxItem;
    expect(item.labels).toEqual([]);
    expect(await outboxEvents(db, 'label.added')).toEqual([]);
  });

  it('inbox views: mine, unassigned, last message, unread counts and scrolling back', async () => {
    const chat = await startChat(org.site, 'cleo', 'one', 'two', 'three');
    let inbox = await as(agent.token).get('/api/agent/conversations?assigned_agent_id=none');
    let item = inbox.body.data.find((row: InboxItem) => row.id === chat.id) as InboxItem;
    expect(item).toMatchObject({
      assigned_agent_id: null,
      unread_count: 3,
      last_message: { id: chat.messageIds[2], body: 'three', sender_type: 'visitor' },
    });

    // Reading up to the second message leaves one unread.
    await as(agent.token)
      .post(`/api/agent/conversations/${chat.id}/read`, { message_id: chat.messageIds[1] })
      .expect(200);
    inbox = await as(agent.token).get('/api/agent/conversations?assigned_agent_id=none');
    item = inbox.body.data.find((row: InboxItem) => row.id === chat.id) as InboxItem;
    expect(item.unread_count).toBe(1);

    // Replying reads everything and assigns the chat: it moves to Mine.
    await as(agent.token)
      .post(`/api/agent/conversations/${chat.id}/messages`, { body: 'Hi Cleo' })
      .expect(201);
    const mine = await as(agent.token).get('/api/agent/conversations?assigned_agent_id=me');
    expect(mine.body.data.map((row: InboxItem) => row.id)).toEqual([chat.id]);
    expect(mine.body.data[0]).toMatchObject({
      assigned_agent_id: agent.id,
      unread_count: 0,
      last_message: { body: 'Hi Cleo', sender_type: 'agent' },
    });
    expect(mine.body.total).toBe(1);
    const byId = await as(org.token).get(`/api/agent/conversations?assigned_agent_id=${agent.id}`);
    expect(byId.body.data.map((row: InboxItem) => row.id)).toEqual([chat.id]);
    const ownerMine = await as(org.token).get('/api/agent/conversations?assigned_agent_id=me');
    expect(ownerMine.body.data).toEqual([]);
    const unassigned = await as(agent.token).get('/api/agent/conversations?assigned_agent_id=none');
    expect(unassigned.body.data.map((row: InboxItem) => row.id)).not.toContain(chat.id);
    await as(agent.token).get('/api/agent/conversations?assigned_agent_id=you').expect(422);

    // A visitor message after the reply is unread again; sorting by activity puts it first.
    const older = await startChat(org.site, 'dora', 'first');
    await request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ body: 'four' })
      .expect(201);
    const newest = await as(agent.token).get('/api/agent/conversations').expect(200);
    expect(newest.body.data[0].id).toBe(older.id);
    const active = await as(agent.token).get('/api/agent/conversations?sort=activity').expect(200);
    expect(active.body.data[0]).toMatchObject({ id: chat.id, unread_count: 1 });

    // Scrolling back: the messages before an id, oldest first.
    const history = await as(agent.token)
      .get(`/api/agent/conversations/${chat.id}/messages?before_id=${chat.messageIds[2]}`)
      .expect(200);
    expect(history.body.data.map((row: { body: string }) => row.body)).toEqual(['one', 'two']);
    await as(other.token)
      .get(`/api/agent/conversations/${chat.id}/messages?before_id=${chat.messageIds[2]}`)
      .expect(404);

    // Opening a long conversation: only its latest messages, and whether older ones exist.
    const whole = await as(agent.token).get(`/api/agent/conversations/${chat.id}`).expect(200);
    const all = whole.body.data.messages as { id: number }[];
    expect(all.length).toBeGreaterThan(2);
    expect(whole.body.data.has_earlier_messages).toBe(false);
    const latest = await as(agent.token)
      .get(`/api/agent/conversations/${chat.id}?message_limit=2`)
      .expect(200);
    expect(latest.body.data.messages).toEqual(all.slice(-2));
    expect(latest.body.data.has_earlier_messages).toBe(true);
    const enough = await as(agent.token)
      .get(`/api/agent/conversations/${chat.id}?message_limit=${all.length}`)
      .expect(200);
    expect(enough.body.data).toMatchObject({ messages: all, has_earlier_messages: false });
    for (const bad of ['0', '201', 'two']) {
      const rejected = await as(agent.token)
        .get(`/api/agent/conversations/${chat.id}?message_limit=${bad}`)
        .expect(422);
      expect(Object.keys(rejected.body.errors)).toEqual(['message_limit']);
    }
  });

  it('search: messages by full text, visitors and tickets, each linked, tenant-scoped', async () => {
    const chat = await startChat(org.site, 'eve', 'The parcel arrived damaged yesterday');
    await startChat(other.site, 'mallory', 'My parcel arrived damaged too');
    const found = await as(agent.token).get('/api/agent/search?q=PARC damag').expect(200);
    expect(found.body).toMatchObject({ total: 1, current_page: 1 });
    expect(found.body.data[0]).toMatchObject({
      type: 'message',
      id: chat.messageIds[0],
      conversation_id: chat.id,
      link: `https://chat.example.test/api/agent/conversations/${chat.id}`,
      excerpt: 'The parcel arrived damaged yesterday',
    });
    expect(
      (await as(agent.token).get('/api/agent/search?q=parcel%20intact').expect(200)).body.total,
    ).toBe(0);
    // Each message hit names its visitor; a private note says it is one.
    await as(agent.token)
      .post(`/api/agent/conversations/${chat.id}/messages`, {
        body: 'Parcel claim: ask for photos first',
        private: true,
      })
      .expect(201);
    const named = await as(agent.token).get('/api/agent/search?q=parcel').expect(200);
    expect(
      (named.body.data as { title: string; private: boolean; visitor_name: string }[]).map(
        (hit) => [hit.title, hit.private, hit.visitor_name],
      ),
    ).toEqual([
      ['Private note in the chat with eve', true, 'eve'],
      ['Message from eve', false, 'eve'],
    ]);
    const operators = await as(agent.token).get('/api/agent/search?q=%26%7C!').expect(422);
    expect(Object.keys(operators.body.errors)).toEqual(['q']);
    await as(agent.token).get('/api/agent/search?q=x&type=users').expect(422);
    await as(agent.token).get('/api/agent/search').expect(422);

    const visitors = await as(agent.token)
      .get('/api/agent/search?type=visitors&q=EVE@example')
      .expect(200);
    expect(visitors.body.data).toEqual([
      expect.objectContaining({
        type: 'visitor',
        id: chat.visitorId,
        visitor_id: chat.visitorId,
        conversation_id: chat.id,
        link: `https://chat.example.test/api/agent/visitors/${chat.visitorId}`,
      }),
    ]);
    const theirs = await as(agent.token).get('/api/agent/search?type=visitors&q=mallory');
    expect(theirs.body.total).toBe(0);

    const ticket = await as(agent.token)
      .post('/api/agent/tickets', {
        subject: 'Damaged parcel claim',
        description: 'Photos attached',
      })
      .expect(201);
    const tickets = await as(agent.token)
      .get('/api/agent/search?type=tickets&q=parcel%20claim')
      .expect(200);
    expect(tickets.body.data).toEqual([
      expect.objectContaining({
        type: 'ticket',
        id: ticket.body.data.id,
        ticket_id: ticket.body.data.id,
        link: `https://chat.example.test/api/agent/tickets/${ticket.body.data.id}`,
      }),
    ]);
    const byNumber = await as(agent.token)
      .get(`/api/agent/search?type=tickets&q=${ticket.body.data.ticket_number as string}`)
      .expect(200);
    expect(byNumber.body.total).toBe(1);

    // The ticket desk searches by number or subject too; wildcards are literal.
    const desk = await as(agent.token).get('/api/agent/tickets?q=PARCEL').expect(200);
    expect(desk.body.data.map((row: { id: number }) => row.id)).toEqual([ticket.body.data.id]);
    expect(desk.body.total).toBe(1);
    expect((await as(agent.token).get('/api/agent/tickets?q=%25').expect(200)).body.total).toBe(0);
    expect((await as(other.token).get('/api/agent/tickets?q=parcel').expect(200)).body.total).toBe(
      0,
    );
  });

  it('organization settings: every agent reads them, owners and admins change them', async () => {
    const read = await as(agent.token).get('/api/agent/organization').expect(200);
    expect(read.body.data).toEqual({
      id: org.organization.id,
      name: 'Acme',
      plan: org.organization.plan,
      auto_assignment: { enabled: false, capacity: 5 },
      require_two_factor: false,
    });
    await as(agent.token).patch('/api/agent/organization', { name: 'Mine' }).expect(403);
    const changed = await as(org.token)
      .patch('/api/agent/organization', {
        name: 'Acme Support',
        auto_assignment: { enabled: true, capacity: 2 },
      })
      .expect(200);
    expect(changed.body).toMatchObject({
      message: 'Organization updated.',
      data: { name: 'Acme Support', auto_assignment: { enabled: true, capacity: 2 } },
    });
    const invalid = await as(org.token)
      .patch('/api/agent/organization', { auto_assignment: { capacity: 0 } })
      .expect(422);
    expect(Object.keys(invalid.body.errors)).toEqual(['auto_assignment.capacity']);
    // A name of only spaces is no name (issue 26): refused on the field, the name kept.
    const blank = await as(org.token).patch('/api/agent/organization', { name: '   ' }).expect(422);
    expect(Object.keys(blank.body.errors)).toEqual(['name']);
    const kept = await as(org.token).get('/api/agent/organization').expect(200);
    expect(kept.body.data.name).toBe('Acme Support');
    const untouched = await as(other.token).get('/api/agent/organization').expect(200);
    expect(untouched.body.data).toMatchObject({
      name: 'Other',
      auto_assignment: { enabled: false },
    });
    await as(org.token)
      .patch('/api/agent/organization', { auto_assignment: { enabled: false } })
      .expect(200);
  });
});
