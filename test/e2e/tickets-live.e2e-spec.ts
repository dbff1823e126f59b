import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { startWidgetChat } from '../factories/widget-chat';
import type { AppProcess } from '../utils/app-process';
import { connect } from '../utils/sockets';
import { startTestApp, type TestApp } from '../utils/test-app';

interface TicketPush {
  ticket_id: number;
  ticket_number: string;
  subject: string;
  status: string;
  priority: string;
  assigned_agent_id: number | null;
  change: 'created' | 'updated' | 'commented';
  by_user_id: number | null;
  by_customer: boolean;
}

/**
 * Tickets live and a customer's history (issue 26): every agent of the organization hears of a
 * new or changed ticket; a ticket lists its customer's other tickets and chats, found by visitor
 * and by address; the visitor panel lists the tickets filed under the visitor's address.
 */
describe('agent API: tickets live, and the customer’s chats and tickets', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;
  let agent: { id: number; token: string };
  let colleague: { id: number; token: string };

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
  });
  const fileTicket = async (token: string, body: object) =>
    (
      await as(token)
        .post('/api/agent/tickets', { subject: 'Help', description: 'It broke.', ...body })
        .expect(201)
    ).body.data as { id: number; ticket_number: string };

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    agent = await addMember(app.url, org.token, 'agent');
    colleague = await addMember(app.url, org.token, 'agent');
  });

  afterAll(() => suite?.stop());

  it('pushes new and changed tickets to every agent of the organization, after the commit', async () => {
    const mine = await connect(suite.direct, '/agent', agent.token);
    const stranger = await connect(suite.direct, '/agent', other.token);
    try {
      const filed = await fileTicket(colleague.token, { subject: 'Printer on fire' });
      const created = await mine.next<TicketPush>(
        'ticket.created',
        (e) => e.ticket_id === filed.id,
      );
      expect(created).toEqual({
        ticket_id: filed.id,
        ticket_number: filed.ticket_number,
        subject: 'Printer on fire',
        status: 'open',
        priority: 'normal',
        assigned_agent_id: null,
        change: 'created',
        by_user_id: colleague.id,
        by_customer: false,
      });

      await as(colleague.token)
        .patch(`/api/agent/tickets/${filed.id}`, { assigned_agent_id: agent.id, priority: 'high' })
        .expect(200);
      expect(
        await mine.next<TicketPush>(
          'ticket.updated',
          (e) => e.ticket_id === filed.id && e.change === 'updated',
        ),
      ).toMatchObject({ assigned_agent_id: agent.id, priority: 'high', by_user_id: colleague.id });

      await as(colleague.token)
        .post(`/api/agent/tickets/${filed.id}/comments`, { body: 'On it.' })
        .expect(201);
      expect(
        await mine.next<TicketPush>(
          'ticket.updated',
          (e) => e.ticket_id === filed.id && e.change === 'commented',
        ),
      ).toMatchObject({ by_user_id: colleague.id, by_customer: false });

      // A refused change is not announced.
      await as(colleague.token)
        .patch(`/api/agent/tickets/${filed.id}`, { assigned_agent_id: other.user.id })
        .expect(422);

      // Another organization's ticket is never pushed here, nor this one there.
      const theirs = await fileTicket(other.token, { subject: 'Theirs' });
      await stranger.next<TicketPush>('ticket.created', (e) => e.ticket_id === theirs.id);
      expect(stranger.received<TicketPush>('ticket.created').map((e) => e.ticket_id)).toEqual([
        theirs.id,
      ]);
      expect(mine.received<TicketPush>('ticket.created').map((e) => e.ticket_id)).toEqual([
        filed.id,
      ]);
      expect(
        mine.received<TicketPush>('ticket.updated').filter((e) => e.ticket_id === filed.id),
      ).toHaveLength(2);
    } finally {
      mine.close();
      stranger.close();
    }
  });

  it('lists a ticket’s customer’s other tickets and chats, by visitor and by address', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['My order never came'], {
      visitor_name: 'Carol Customer',
      visitor_email: 'Carol@Example.com',
    });
    const byMail = await fileTicket(agent.token, {
      subject: 'Order 1001 missing',
      customer_name: 'Carol',
      customer_email: 'carol@example.COM',
    });
    const byVisitor = await fileTicket(agent.token, {
      subject: 'Refund please',
      visitor_id: chat.visitorId,
    });
    const unrelated = await fileTicket(agent.token, {
      subject: 'Someone else',
      customer_email: 'dave@example.com',
    });
    // The same address in another organization is another customer.
    await fileTicket(other.token, { subject: 'Elsewhere', customer_email: 'carol@example.com' });

    const ofMail = await as(agent.token)
      .get(`/api/agent/tickets/${byMail.id}/customer`)
      .expect(200);
    expect(ofMail.body.data).toMatchObject({ visitor_id: null, email: 'carol@example.COM' });
    expect(ofMail.body.data.tickets.map((t: { id: number }) => t.id)).toEqual([byVisitor.id]);
    expect(ofMail.body.data.conversations.map((c: { id: number }) => c.id)).toEqual([chat.id]);

    const ofVisitor = await as(agent.token)
      .get(`/api/agent/tickets/${byVisitor.id}/customer`)
      .expect(200);
    expect(ofVisitor.body.data.visitor_id).toBe(chat.visitorId);
    expect(ofVisitor.body.data.tickets.map((t: { id: number }) => t.id)).toEqual([byMail.id]);
    expect(ofVisitor.body.data.conversations).toEqual([
      expect.objectContaining({ id: chat.id, status: 'waiting', site_id: org.site.id }),
    ]);

    const ofUnrelated = await as(agent.token)
      .get(`/api/agent/tickets/${unrelated.id}/customer`)
      .expect(200);
    expect(ofUnrelated.body.data).toMatchObject({ tickets: [], conversations: [] });

    await as(other.token).get(`/api/agent/tickets/${byMail.id}/customer`).expect(404);
    await as(agent.token).get('/api/agent/tickets/999999/customer').expect(404);

    // The visitor panel lists the visitor's tickets and those under the visitor's address.
    const panel = await as(agent.token).get(`/api/agent/visitors/${chat.visitorId}`).expect(200);
    expect(panel.body.data.tickets.map((t: { id: number }) => t.id)).toEqual([
      byVisitor.id,
      byMail.id,
    ]);
  });
});
