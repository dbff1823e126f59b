import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect, type TestSocket } from '../utils/sockets';

interface Session {
  visitor_uid: string;
  session_token: string;
  conversation_id: number;
  unread_count: number;
  widget_config: {
    agents_online: boolean;
    appearance: Record<string, string>;
  };
}

describe('widget: offline mode, look and unread count', () => {
  let suite: TestApp;
  let app: AppProcess;
  let direct: string;
  let db: Pool;
  let org: Registered;
  const sockets: TestSocket[] = [];

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const init = async (owner = org, visitorUid?: string): Promise<Session> =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: owner.site.widget_key, visitor_uid: visitorUid })
        .expect(200)
    ).body as Session;
  const open = async (namespace: '/widget' | '/agent', token: string) => {
    const socket = await connect(direct, namespace, token);
    sockets.push(socket);
    return socket;
  };
  const presence = (token: string, status: string) =>
    request(app.url).patch('/api/agent/presence').set(bearer(token)).send({ status }).expect(200);

  beforeAll(async () => {
    ({ app, db, direct } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
    org = await registerOrganization(app.url, 'Acme');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(() => suite?.stop());

  describe('offline mode', () => {
    it('init says whether an agent is online, and the widget hears each change', async () => {
      const other = await registerOrganization(app.url, 'Other');
      const session = await init();
      expect(session.widget_config.agents_online).toBe(false);
      const widget = await open('/widget', session.session_token);
      const otherWidget = await open('/widget', (await init(other)).session_token);
      const member = await addMember(app.url, org.token, 'agent');

      const agentSocket = await open('/agent', org.token);
      expect(await widget.next('agents.availability')).toEqual({ agents_online: true });
      expect((await init(org, session.visitor_uid)).widget_config.agents_online).toBe(true);
      const config = await request(app.url)
        .get('/api/widget/config')
        .query({ widget_key: org.site.widget_key })
        .expect(200);
      expect(config.body.widget_config.agents_online).toBe(true);

      // A second agent coming and going while the first stays online changes nothing visible.
      await presence(member.token, 'online');
      expect(await widget.next('agents.availability')).toEqual({ agents_online: true });
      await presence(member.token, 'away');
      expect(await widget.next('agents.availability')).toEqual({ agents_online: true });

      agentSocket.close();
      expect(await widget.next('agents.availability')).toEqual({ agents_online: false });
      expect((await init(org, session.visitor_uid)).widget_config.agents_online).toBe(false);
      await presence(org.token, 'online');
      expect(await widget.next('agents.availability')).toEqual({ agents_online: true });
      await presence(org.token, 'away');
      expect(await widget.next('agents.availability')).toEqual({ agents_online: false });

      // Other organizations' widgets hear nothing of it.
      expect(otherWidget.received('agents.availability')).toEqual([]);
    });

    it('a message left while nobody is online becomes a widget ticket the visitor is shown', async () => {
      const session = await init();
      const left = await request(app.url)
        .post('/api/widget/offline-messages')
        .set(bearer(session.session_token))
        .send({
          email: 'ada@example.com',
          name: 'Ada',
          message: 'Do you ship to Norway?\nI need it by Friday.',
        })
        .expect(201);
      expect(left.body).toMatchObject({
        status: true,
        code: '201',
        message: 'Message received. We will answer by email.',
        data: {
          ticket_number: expect.stringMatching(/^TKT-\d{4}-\d{6}$/),
          subject: 'Do you ship to Norway?',
          description: 'Do you ship to Norway?\nI need it by Friday.',
          status: 'open',
          priority: 'normal',
          source: 'widget',
          customer_name: 'Ada',
          customer_email: 'ada@example.com',
        },
      });
      const created = await outboxEvents(db, 'ticket.created');
      expect(created.map((e) => (e.ticket as { id: number }).id)).toContain(left.body.data.id);

      const noEmail = await request(app.url)
        .post('/api/widget/offline-messages')
        .set(bearer(session.session_token))
        .send({ message: 'Hello?' })
        .expect(422);
      expect(Object.keys(noEmail.body.errors)).toEqual(['email']);
      const badEmail = await request(app.url)
        .post('/api/widget/offline-messages')
        .set(bearer(session.session_token))
        .send({ email: 'not an email', message: '' })
        .expect(422);
      expect(Object.keys(badEmail.body.errors).sort()).toEqual(['email', 'message']);

      const free = await registerOrganization(app.url, 'Free');
      await db.query(`UPDATE organizations SET plan = 'free' WHERE id = $1`, [
        free.organization.id,
      ]);
      const refused = await request(app.url)
        .post('/api/widget/offline-messages')
        .set(bearer((await init(free)).session_token))
        .send({ email: 'ada@example.com', message: 'Hello?' })
        .expect(403);
      expect(refused.body.error_code).toBe('feature_not_in_plan');
    });
  });

  describe('look', () => {
    it('init returns the site appearance, with defaults, as PATCHed', async () => {
      const before = await init();
      expect(before.widget_config.appearance).toEqual({
        color: '#2563eb',
        position: 'right',
        greeting: 'Hi! How can we help you today?',
        launcher_label: 'Chat with us',
      });
      const patched = await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set(bearer(org.token))
        .send({ widget_settings: { appearance: { color: '#0A0', position: 'left' } } })
        .expect(200);
      expect(patched.body.data.widget_settings.appearance).toMatchObject({
        color: '#0A0',
        position: 'left',
        launcher_label: 'Chat with us',
      });
      await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set(bearer(org.token))
        .send({ widget_settings: { appearance: { greeting: 'Hallo!', launcher_label: 'Hilfe' } } })
        .expect(200);
      expect((await init()).widget_config.appearance).toEqual({
        color: '#0A0',
        position: 'left',
        greeting: 'Hallo!',
        launcher_label: 'Hilfe',
      });

      const bad = await request(app.url)
        .patch(`/api/agent/sites/${org.site.id}`)
        .set(bearer(org.token))
        .send({
          widget_settings: {
            appearance: {
              color: 'red',
              position: 'top',
              greeting: 'x'.repeat(201),
              launcher_label: '',
            },
          },
        })
        .expect(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual([
        'widget_settings.appearance.color',
        'widget_settings.appearance.greeting',
        'widget_settings.appearance.launcher_label',
        'widget_settings.appearance.position',
      ]);
      expect(bad.body.errors['widget_settings.appearance.color']).toEqual([
        'Color must be a hex colour such as #2563eb.',
      ]);
    });
  });

  describe('unread count', () => {
    it('counts agent messages past the visitor read position, in init, catch-up and read answers', async () => {
      const session = await init();
      const first = await request(app.url)
        .post('/api/widget/messages')
        .set(bearer(session.session_token))
        .send({ body: 'Hello' })
        .expect(201);
      expect((await init(org, session.visitor_uid)).unread_count).toBe(0);
      const replies: number[] = [];
      for (const body of ['Hi!', 'How can I help?']) {
        const reply = await request(app.url)
          .post(`/api/agent/conversations/${session.conversation_id}/messages`)
          .set(bearer(org.token))
          .send({ body })
          .expect(201);
        replies.push(reply.body.id as number);
      }
      expect((await init(org, session.visitor_uid)).unread_count).toBe(2);
      const caughtUp = await request(app.url)
        .get('/api/widget/messages')
        .query({ after_id: first.body.id })
        .set(bearer(session.session_token))
        .expect(200);
      expect(caughtUp.body.unread_count).toBe(2);

      const read = await request(app.url)
        .post('/api/widget/read')
        .set(bearer(session.session_token))
        .send({ conversation_id: session.conversation_id, message_id: replies[0] })
        .expect(200);
      expect(read.body.data).toEqual({
        conversation_id: session.conversation_id,
        message_id: replies[0],
        unread_count: 1,
      });
      const agentRead = await open('/agent', org.token);
      await request(app.url)
        .post('/api/widget/read')
        .set(bearer(session.session_token))
        .send({
          conversation_id: session.conversation_id,
          message_id: replies[1],
        })
        .expect(200);
      expect(
        await agentRead.next('read', (r: { message_id?: number }) => r.message_id === replies[1]),
      ).toEqual({
        conversation_id: session.conversation_id,
        reader: 'visitor',
        message_id: replies[1],
      });
      expect((await init(org, session.visitor_uid)).unread_count).toBe(0);

      const stranger = await init();
      await request(app.url)
        .post('/api/widget/read')
        .set(bearer(stranger.session_token))
        .send({ conversation_id: session.conversation_id, message_id: replies[1] })
        .expect(404);
    });
  });
});
