import request from 'supertest';
import { addMember, registerOrganization } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
// A real 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Issue 28: members edit their own name, avatar and password (PATCH /api/agent/me). */
describe('accounts: profile', () => {
  let suite: TestApp;
  let app: AppProcess;

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL: 'https://chat.example.test' }));
  });

  afterAll(() => suite?.stop());

  it('changes its own name, shown in the directory every member reads', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const res = await request(app.url)
      .patch('/api/agent/me')
      .set(auth(agent.token))
      .send({ name: '  Ada Renamed ' })
      .expect(200);
    expect(res.body.data).toMatchObject({ id: agent.id, name: 'Ada Renamed', avatar_url: null });
    const directory = await request(app.url)
      .get('/api/agent/team/directory')
      .set(auth(org.token))
      .expect(200);
    expect(directory.body.data).toContainEqual({
      id: agent.id,
      name: 'Ada Renamed',
      role: 'agent',
      status: expect.any(String),
      avatar_url: null,
    });
    const bad = await request(app.url)
      .patch('/api/agent/me')
      .set(auth(agent.token))
      .send({ name: '', avatar: 'x', password: 'short' })
      .expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['avatar', 'name', 'password']);
  });

  it('uploads an avatar (images only, 512 KiB at most), served at its address to anyone, and removes it', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const up = await request(app.url)
      .post('/api/agent/me/avatar')
      .set(auth(agent.token))
      .attach('file', PNG, { filename: 'me.png', contentType: 'image/png' })
      .expect(200);
    const url = up.body.data.avatar_url as string;
    expect(url).toMatch(/^https:\/\/chat\.example\.test\/api\/avatars\/av_[0-9A-Za-z]{32}$/);
    const path = new URL(url).pathname;
    const image = await request(app.url).get(path).expect(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
    const directory = await request(app.url)
      .get('/api/agent/team/directory')
      .set(auth(org.token))
      .expect(200);
    expect(directory.body.data.find((m: { id: number }) => m.id === agent.id).avatar_url).toBe(url);

    // A script called .png, and a picture too large: refused.
    await request(app.url)
      .post('/api/agent/me/avatar')
      .set(auth(agent.token))
      .attach('file', Buffer.from('<script>alert(1)</script>'), {
        filename: 'evil.png',
        contentType: 'image/png',
      })
      .expect(422);
    await request(app.url)
      .post('/api/agent/me/avatar')
      .set(auth(agent.token))
      .attach('file', Buffer.from('%PDF-1.4\n'), {
        filename: 'a.pdf',
        contentType: 'application/pdf',
      })
      .expect(422);
    const big = Buffer.concat([PNG, Buffer.alloc(600 * 1024)]);
    await request(app.url)
      .post('/api/agent/me/avatar')
      .set(auth(agent.token))
      .attach('file', big, { filename: 'big.png', contentType: 'image/png' })
      .expect(413);

    // Removed: the old address stops working.
    const removed = await request(app.url)
      .patch('/api/agent/me')
      .set(auth(agent.token))
      .send({ avatar: null })
      .expect(200);
    expect(removed.body.data.avatar_url).toBeNull();
    await request(app.url).get(path).expect(404);
    await request(app.url).get('/api/avatars/av_nothing').expect(404);
  });

  it('changes the password only with the current one, ending the other sessions', async () => {
    const org = await registerOrganization(app.url);
    const agent = await addMember(app.url, org.token, 'agent');
    const other = await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: agent.email, password: agent.password })
      .expect(200);
    const missing = await request(app.url)
      .patch('/api/agent/me')
      .set(auth(agent.token))
      .send({ password: 'a new password' })
      .expect(422);
    expect(missing.body.errors.current_password).toBeDefined();
    const wrong = await request(app.url)
      .patch('/api/agent/me')
      .set(auth(agent.token))
      .send({ password: 'a new password', current_password: 'not it at all' })
      .expect(422);
    expect(wrong.body.errors.current_password).toEqual(['The current password is incorrect.']);
    await request(app.url).get('/api/agent/me').set(auth(other.body.token)).expect(200);
    await request(app.url)
      .patch('/api/agent/me')
      .set(auth(agent.token))
      .send({ password: 'a new password', current_password: agent.password })
      .expect(200);
    await request(app.url).get('/api/agent/me').set(auth(other.body.token)).expect(401);
    await request(app.url).get('/api/agent/me').set(auth(agent.token)).expect(200);
    await request(app.url)
      .post('/api/agent/auth/login')
      .send({ email: agent.email, password: 'a new password' })
      .expect(200);
  });

  it("gives the widget the answering agent's name and avatar with each agent message", async () => {
    const org = await registerOrganization(app.url);
    const up = await request(app.url)
      .post('/api/agent/me/avatar')
      .set(auth(org.token))
      .attach('file', PNG, { filename: 'me.png', contentType: 'image/png' })
      .expect(200);
    const session = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key, visitor_name: 'Vera' })
      .expect(200);
    const visitor = { Authorization: `Bearer ${session.body.session_token}` };
    const sent = await request(app.url)
      .post('/api/widget/messages')
      .set(visitor)
      .send({ body: 'Hello?' })
      .expect(201);
    expect(sent.body.data).toMatchObject({ sender_name: null, sender_avatar_url: null });
    await request(app.url)
      .post(`/api/agent/conversations/${sent.body.conversation_id}/messages`)
      .set(auth(org.token))
      .send({ body: 'Hi Vera!' })
      .expect(201);
    const messages = await request(app.url).get('/api/widget/messages').set(visitor).expect(200);
    expect(
      messages.body.data.map((m: Record<string, unknown>) => [
        m.body,
        m.sender_name,
        m.sender_avatar_url,
      ]),
    ).toEqual([
      ['Hello?', null, null],
      ['Hi Vera!', 'Olivia Owner', up.body.data.avatar_url],
    ]);
  });
});
