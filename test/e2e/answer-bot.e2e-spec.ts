import type { Pool } from 'pg';
import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { startWidgetChat, type WidgetChat } from '../factories/widget-chat';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

interface ChatMessage {
  id: number;
  body: string;
  sender_type: string;
  actions: { id: string; label: string }[];
}

/** DESIGN section 11: the answer bot answers from bot replies and articles, and hands over. */
describe('answer bot', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let other: Registered;

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object = {}) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    put: (url: string, body: object) =>
      request(app.url).put(url).set('Authorization', `Bearer ${token}`).send(body),
  });
  const settingsOf = (site: number) => `/api/agent/sites/${site}/answer-bot`;
  const turnOn = (changes: object = {}) =>
    as(org.token)
      .put(settingsOf(org.site.id), {
        enabled: true,
        min_score: 0.3,
        handoff_message: null,
        max_answers: 3,
        ...changes,
      })
      .expect(200);

  /** The conversation's messages as the visitor sees them. */
  const messagesOf = async (chat: WidgetChat): Promise<ChatMessage[]> =>
    (
      await request(app.url)
        .get('/api/widget/messages?after_id=0')
        .set('Authorization', `Bearer ${chat.sessionToken}`)
        .expect(200)
    ).body.data as ChatMessage[];
  const botMessages = async (chat: WidgetChat) =>
    (await messagesOf(chat)).filter((message) => message.sender_type === 'bot');
  const say = (chat: WidgetChat, body: string) =>
    request(app.url)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ body })
      .expect(201);
  /** Waits until the visitor's message has been looked at by the bot (answered or not). */
  const looked = (count: number) =>
    eventually(async () => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM bot_questions WHERE site_id = $1',
        [org.site.id],
      );
      return rows[0].n >= count;
    });

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp());
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    await as(org.token)
      .post('/api/agent/bot-replies', {
        site_id: org.site.id,
        question: 'How do I reset my password?',
        answer: 'Click "Forgot password" on the login page; the link is valid for one hour.',
      })
      .expect(201);
    await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Shipping times',
        body: 'Parcels to Canada and the United States arrive within five working days. Shipping to Europe takes two days.',
        status: 'published',
      })
      .expect(201);
  });

  afterAll(() => suite?.stop());

  it('is off by default and stays silent then', async () => {
    const settings = await as(org.token).get(settingsOf(org.site.id)).expect(200);
    expect(settings.body.data).toMatchObject({
      enabled: false,
      min_score: 0.3,
      max_answers: 3,
      generative: false,
      // No LLM_* variables on this server: the settings say generation cannot run.
      generative_available: false,
    });
    const chat = await startWidgetChat(app.url, org.site, ['How do I reset my password?']);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await botMessages(chat)).toEqual([]);
  });

  it('answers a question worded differently, with "That helped" and "Talk to a person"', async () => {
    await turnOn();
    const chat = await startWidgetChat(app.url, org.site, [
      'I forgot my password, how can I change it?',
    ]);
    const [answer] = await eventually(async () => {
      const found = await botMessages(chat);
      return found.length > 0 ? found : undefined;
    });
    expect(answer.body).toContain('Forgot password');
    expect(answer.actions).toEqual([
      { id: 'resolved', label: 'That helped' },
      { id: 'handoff', label: 'Talk to a person' },
    ]);
    // "That helped" closes the conversation, resolved by the bot.
    const resolved = await request(app.url)
      .post('/api/widget/bot-resolved')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ conversation_id: chat.id })
      .expect(200);
    expect(resolved.body.data).toMatchObject({ id: chat.id, status: 'closed' });
  });

  it('answers from a published article with its address', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['How long is shipping to Canada?']);
    const [answer] = await eventually(async () => {
      const found = await botMessages(chat);
      return found.length > 0 ? found : undefined;
    });
    expect(answer.body).toContain('Canada');
    expect(answer.body).toMatch(
      /Read more: Shipping times http.*\/help\/.*\/articles\/shipping-times/,
    );
  });

  it('stays silent when nothing answers, and the report lists the question', async () => {
    const before = (await db.query('SELECT 1 FROM bot_questions')).rowCount ?? 0;
    const chat = await startWidgetChat(app.url, org.site, ['Are you open on Sunday mornings?']);
    await looked(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await botMessages(chat)).toEqual([]);
    const report = await as(org.token).get('/api/agent/answer-bot/report?days=7').expect(200);
    expect(report.body.data.unanswered).toEqual(
      expect.arrayContaining([{ question: 'Are you open on Sunday mornings?', asked: 1 }]),
    );
    expect(report.body.data).toMatchObject({ resolved: 1, handed_off: 0 });
    expect(report.body.data.answered).toBeGreaterThanOrEqual(2);
  });

  it('hands over on "Talk to a person" and never talks over an agent', async () => {
    const chat = await startWidgetChat(app.url, org.site, ['How do I reset my password?']);
    await eventually(async () => (await botMessages(chat)).length === 1);
    await request(app.url)
      .post('/api/widget/handoff')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ conversation_id: chat.id })
      .expect(200);
    const bot = await eventually(async () => {
      const found = await botMessages(chat);
      return found.length === 2 ? found : undefined;
    });
    expect(bot[1]).toMatchObject({
      body: 'Thanks, I am passing you to our team. Someone will answer here shortly.',
      actions: [],
    });
    // A second press says nothing more; the bot is quiet from now on.
    await request(app.url)
      .post('/api/widget/handoff')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ conversation_id: chat.id })
      .expect(200);
    const before = (await db.query('SELECT 1 FROM bot_questions')).rowCount ?? 0;
    await say(chat, 'How do I reset my password?');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await botMessages(chat)).toHaveLength(2);
    expect((await db.query('SELECT 1 FROM bot_questions')).rowCount).toBe(before);

    // An agent answered first: the bot stays out of it.
    const helped = await startWidgetChat(app.url, org.site, ['Hello there']);
    await as(org.token)
      .post(`/api/agent/conversations/${helped.id}/messages`, { body: 'Hi, Olivia here.' })
      .expect(201);
    await say(helped, 'How do I reset my password?');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await botMessages(helped)).toEqual([]);

    const report = await as(org.token).get('/api/agent/answer-bot/report').expect(200);
    expect(report.body.data.handed_off).toBe(1);
  });

  it('hands over by itself after max_answers', async () => {
    await turnOn({ max_answers: 1, handoff_message: 'Our team takes it from here.' });
    const chat = await startWidgetChat(app.url, org.site, ['How do I reset my password?']);
    await eventually(async () => (await botMessages(chat)).length === 1);
    await say(chat, 'And how long is shipping to Canada?');
    const bot = await eventually(async () => {
      const found = await botMessages(chat);
      return found.length === 2 ? found : undefined;
    });
    expect(bot[1].body).toBe('Our team takes it from here.');
  });

  it('settings: owners and admins change them, another organization never sees them', async () => {
    const bad = await as(org.token)
      .put(settingsOf(org.site.id), {
        enabled: 'yes',
        min_score: 2,
        handoff_message: 5,
        max_answers: 0,
      })
      .expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'enabled',
      'handoff_message',
      'max_answers',
      'min_score',
    ]);
    await as(other.token).get(settingsOf(org.site.id)).expect(404);
    await as(other.token)
      .put(settingsOf(org.site.id), {
        enabled: true,
        min_score: 0.3,
        handoff_message: null,
        max_answers: 3,
      })
      .expect(404);
    expect(
      (await as(other.token).get('/api/agent/answer-bot/report').expect(200)).body.data,
    ).toMatchObject({
      questions: 0,
      unanswered: [],
    });
    const chat = await startWidgetChat(app.url, other.site, ['Hello']);
    await request(app.url)
      .post('/api/widget/handoff')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ conversation_id: 999999 })
      .expect(404);
  });
});
