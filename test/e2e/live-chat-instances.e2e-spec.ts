import request from 'supertest';
import { addMember, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase, pool } from '../utils/database';
import { redisAvailable, type RedisServer, startRedis } from '../utils/redis';
import { connect, type TestSocket } from '../utils/sockets';

/**
 * Two instances on one database and one Redis behave as one: a visitor on one instance reaches an
 * agent on the other, in both directions, and presence counts sockets on every instance. The
 * missed-chat timer runs on BullMQ over Redis there.
 */
const describeWithRedis = redisAvailable() ? describe : describe.skip;

describeWithRedis('live chat across two instances sharing Redis', () => {
  let databaseUrl: string;
  let redis: RedisServer;
  let one: AppProcess;
  let two: AppProcess;
  let org: Registered;
  const sockets: TestSocket[] = [];
  const direct = (app: AppProcess) => `http://127.0.0.1:${app.port}`;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    redis = await startRedis();
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, MISSED_CHAT_SECONDS: '1' };
    [one, two] = await Promise.all([startApp(env), startApp(env)]);
    org = await registerOrganization(one.url, 'Two Instances Inc.');
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(async () => {
    await one?.stop();
    await two?.stop();
    await redis?.stop();
    await dropTestDatabase(databaseUrl);
  });

  it('passes a visitor message on one instance to an agent on the other, and the reply back', async () => {
    const session = (
      await request(one.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    const widget = await connect(direct(one), '/widget', session.session_token);
    const inbox = await connect(direct(two), '/agent', org.token);
    sockets.push(widget, inbox);

    const sent = await request(one.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Hello from instance one' })
      .expect(201);
    await expect(
      inbox.next('message.created', (m: { id: number }) => m.id === sent.body.id),
    ).resolves.toMatchObject({
      conversation_id: session.conversation_id,
      body: 'Hello from instance one',
    });

    await inbox.ask('typing', { conversation_id: session.conversation_id, is_typing: true });
    await expect(widget.next('typing')).resolves.toMatchObject({ sender_type: 'agent' });

    const reply = await request(two.url)
      .post(`/api/agent/conversations/${session.conversation_id}/messages`)
      .set('Authorization', `Bearer ${org.token}`)
      .send({ body: 'Answered from instance two' })
      .expect(201);
    await expect(
      widget.next('message.created', (m: { id: number }) => m.id === reply.body.id),
    ).resolves.toMatchObject({ body: 'Answered from instance two', sender_type: 'agent' });
  });

  it('counts an agent online while any instance holds one of its sockets', async () => {
    const db = pool(databaseUrl);
    try {
      const status = async () =>
        (await db.query(`SELECT status FROM users WHERE id = $1`, [org.user.id])).rows[0]
          .status as string;
      const onOne = await connect(direct(one), '/agent', org.token);
      const onTwo = await connect(direct(two), '/agent', org.token);
      sockets.push(onOne, onTwo);
      expect(await status()).toBe('online');
      onOne.close();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await status()).toBe('online');
      onTwo.close();
      await eventually(async () => (await status()) === 'offline');
    } finally {
      await db.end();
    }
  });

  it("closes a removed agent's socket on the other instance within a second", async () => {
    const member = await addMember(one.url, org.token, 'agent');
    const onOne = await connect(direct(one), '/agent', member.token);
    const onTwo = await connect(direct(two), '/agent', member.token);
    sockets.push(onOne, onTwo);
    const closed = (socket: TestSocket) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('socket still open after 1 s')), 1000);
        socket.socket.once('disconnect', (reason) => {
          clearTimeout(timer);
          resolve(reason);
        });
      });
    const both = Promise.all([closed(onOne), closed(onTwo)]);
    await request(two.url)
      .delete(`/api/agent/team/${member.id}`)
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    await expect(both).resolves.toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('marks an unanswered chat missed through the Redis queue', async () => {
    const session = (
      await request(two.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    const inbox = await connect(direct(one), '/agent', org.token);
    sockets.push(inbox);
    await request(two.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.session_token}`)
      .send({ body: 'Anybody there?' })
      .expect(201);
    await expect(
      inbox.next(
        'conversation.updated',
        (u: { conversation_id: number; status: string }) =>
          u.conversation_id === session.conversation_id && u.status === 'missed',
      ),
    ).resolves.toMatchObject({ status: 'missed' });
  });
});
