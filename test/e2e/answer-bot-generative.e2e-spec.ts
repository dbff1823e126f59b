import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { startWidgetChat, type WidgetChat } from '../factories/widget-chat';
import { type AppProcess, eventually } from '../utils/app-process';
import { startLanguageModel } from '../utils/language-model';
import { startTestApp, type TestApp } from '../utils/test-app';

interface ChatMessage {
  id: number;
  body: string;
  type: string;
  sender_type: string;
  actions: { id: string; label: string }[];
}

/** DESIGN section 11: generative answers, only from retrieved passages, never leaving a visitor waiting. */
describe('answer bot: generative answers', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let model: Awaited<ReturnType<typeof startLanguageModel>>;

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object = {}) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    put: (url: string, body: object) =>
      request(app.url).put(url).set('Authorization', `Bearer ${token}`).send(body),
  });
  const settings = (changes: object = {}) =>
    as(org.token)
      .put(`/api/agent/sites/${org.site.id}/answer-bot`, {
        enabled: true,
        min_score: 0.3,
        handoff_message: 'Passing you to the team.',
        max_answers: 3,
        generative: true,
        guidance: 'Be brief and friendly.',
        forbidden_topics: ['refunds for damaged goods'],
        daily_cap: 100,
        ...changes,
      })
      .expect(200);
  const botMessages = async (chat: WidgetChat): Promise<ChatMessage[]> =>
    (
      (
        await request(app.url)
          .get('/api/widget/messages?after_id=0')
          .set('Authorization', `Bearer ${chat.sessionToken}`)
          .expect(200)
      ).body.data as ChatMessage[]
    ).filter((message) => message.sender_type === 'bot');
  const firstBotMessage = (chat: WidgetChat, ms = 10_000) =>
    eventually(async () => (await botMessages(chat))[0], ms);
  const log = async () =>
    (await as(org.token).get('/api/agent/answer-log').expect(200)).body.data as {
      conversation_id: number;
      outcome: string;
      answer: string | null;
      model: string;
      passages: { title: string; url: string | null }[];
      feedback: string | null;
      latency_ms: number;
    }[];

  beforeAll(async () => {
    model = await startLanguageModel();
    ({ app } = suite = await startTestApp({
      LLM_BASE_URL: model.url,
      LLM_API_KEY: 'sk-test-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '1000',
    }));
    org = await registerOrganization(app.url, 'Acme');
    await as(org.token)
      .post('/api/agent/bot-replies', {
        site_id: org.site.id,
        question: 'How do I reset my password?',
        answer: 'Click "Forgot password" on the login page.',
      })
      .expect(201);
    await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Password and parcels',
        body: 'Your password can be reset from the login page. Parcels are insured; a lost parcel is replaced. The weather does not delay parcels.',
        status: 'published',
      })
      .expect(201);
  });

  afterAll(async () => {
    await suite?.stop();
    await model?.close();
  });

  it('composes an answer only from the passages it retrieved, cites them and marks it generated', async () => {
    const saved = await settings();
    expect(saved.body.data).toMatchObject({
      generative: true,
      generative_available: true,
      forbidden_topics: ['refunds for damaged goods'],
      daily_cap: 100,
    });
    const chat = await startWidgetChat(app.url, org.site, ['I forgot my password, what now?']);
    const answer = await firstBotMessage(chat);
    expect(answer.type).toBe('generated');
    expect(answer.body).toContain('Use "Forgot password" on the login page [1]');
    // The cited passages with an address are listed under the answer.
    expect(answer.body).toMatch(
      /\[2\] Password and parcels http.*\/articles\/password-and-parcels/,
    );
    expect(answer.actions.map((action) => action.id)).toEqual(['resolved', 'handoff']);

    const call = model.calls[model.calls.length - 1];
    expect(call.authorization).toBe('Bearer sk-test-key');
    expect(call.body.model).toBe('test-model');
    const system = call.body.messages[0].content;
    expect(system).toContain('Answer ONLY from the numbered passages');
    expect(system).toContain('[1] How do I reset my password?');
    expect(system).toContain('Be brief and friendly.');
    expect(system).toContain('refunds for damaged goods');

    await request(app.url)
      .post('/api/widget/bot-resolved')
      .set('Authorization', `Bearer ${chat.sessionToken}`)
      .send({ conversation_id: chat.id })
      .expect(200);
    const [entry] = await log();
    expect(entry).toMatchObject({
      conversation_id: chat.id,
      outcome: 'answered',
      model: 'test-model',
      feedback: 'helped',
    });
    expect(entry.passages.map((passage) => passage.title)).toEqual(
      expect.arrayContaining(['How do I reset my password?', 'Password and parcels']),
    );
  });

  it('hands over at once when the model is late, fails, or finds no answer in the passages', async () => {
    for (const [question, outcome] of [
      ['My password reset is slow, help', 'timed_out'],
      ['The password page looks broken', 'failed'],
      ['Will the weather delay my parcel?', 'handed_off'],
    ] as const) {
      const sent = Date.now();
      const chat = await startWidgetChat(app.url, org.site, [question]);
      const reply = await firstBotMessage(chat);
      expect(reply).toMatchObject({ body: 'Passing you to the team.', type: 'text', actions: [] });
      // Never left waiting past LLM_TIMEOUT_MS (1 s here) and the bot's own work.
      expect(Date.now() - sent).toBeLessThan(4000);
      const entry = (await log()).find((row) => row.conversation_id === chat.id);
      expect(entry).toMatchObject({ outcome, answer: null });
    }
  });

  it('stops generating at the daily cap and answers from its replies instead', async () => {
    await settings({ daily_cap: 1 });
    const chat = await startWidgetChat(app.url, org.site, ['How do I reset my password?']);
    const answer = await firstBotMessage(chat);
    expect(answer).toMatchObject({
      type: 'text',
      body: 'Click "Forgot password" on the login page.',
    });
  });
});
