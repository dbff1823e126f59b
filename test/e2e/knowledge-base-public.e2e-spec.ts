import request from 'supertest';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { startReceiver } from '../utils/webhook-receiver';

const PUBLIC_URL = 'https://chat.example.test';

/** Knowledge-base articles in the public API v1 (DESIGN section 10) and `kb.article_published`. */
describe('public API: knowledge base', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;
  let readKey: string;
  let writeKey: string;
  let bothKey: string;
  let otherKey: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const api = (key: string) => ({
    get: (url: string) =>
      request(app.url).get(`/api/v1${url}`).set('Authorization', `Bearer ${key}`),
    post: (url: string, body: object) =>
      request(app.url).post(`/api/v1${url}`).set('Authorization', `Bearer ${key}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(`/api/v1${url}`).set('Authorization', `Bearer ${key}`).send(body),
  });

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL, WEBHOOK_ALLOW_INSECURE: 'true' }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    ({ key: readKey } = await createApiKey(app.url, org.token, ['kb:read']));
    ({ key: writeKey } = await createApiKey(app.url, org.token, ['kb:write']));
    ({ key: bothKey } = await createApiKey(app.url, org.token, ['kb:read', 'kb:write']));
    ({ key: otherKey } = await createApiKey(app.url, other.token, ['kb:read', 'kb:write']));
    receiver = await startReceiver();
    await request(app.url)
      .post('/api/agent/webhooks')
      .set('Authorization', `Bearer ${org.token}`)
      .send({ url: receiver.url, events: ['kb.article_published'] })
      .expect(201);
  });

  afterAll(async () => {
    await receiver?.close();
    await suite?.stop();
  });

  it('needs kb:write to write and kb:read to read', async () => {
    const denied = await api(readKey)
      .post('/kb/articles', { site_id: org.site.id, title: 'Nope' })
      .expect(403);
    expect(denied.body).toMatchObject({
      error_code: 'missing_ability',
      message: 'API key missing required ability: kb:write',
    });
    const unread = await api(writeKey).get('/kb/articles').expect(403);
    expect(unread.body.message).toBe('API key missing required ability: kb:read');
    await request(app.url).get('/api/v1/kb/articles').expect(401);
  });

  it('creates, reads, lists, searches and updates articles in the spec envelope', async () => {
    const created = await api(writeKey)
      .post('/kb/articles', {
        site_id: org.site.id,
        title: 'Track your order',
        body: 'Use the **tracking** link in your mail.',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      status: true,
      code: '201',
      message: 'Article created.',
      data: {
        site_id: org.site.id,
        locale: 'en',
        slug: 'track-your-order',
        status: 'draft',
        html: '<p>Use the <strong>tracking</strong> link in your mail.</p>\n',
        url: `${PUBLIC_URL}/help/${org.site.widget_key}/en/articles/track-your-order`,
      },
    });
    const id = created.body.data.id;
    await api(writeKey)
      .post('/kb/articles', { site_id: org.site.id, title: 'Track your order' })
      .expect(409);
    await api(writeKey)
      .post('/kb/articles', { site_id: org.site.id, title: 'x', body: 'b'.repeat(100_001) })
      .expect(422);

    const read = await api(readKey).get(`/kb/articles/${id}`).expect(200);
    expect(read.body.data).toMatchObject({ id, title: 'Track your order', translations: [] });

    const updated = await api(writeKey)
      .patch(`/kb/articles/${id}`, { status: 'published', excerpt: 'Where is my parcel?' })
      .expect(200);
    expect(updated.body.data).toMatchObject({
      status: 'published',
      excerpt: 'Where is my parcel?',
    });
    expect(updated.body.data.published_at).not.toBeNull();

    await api(writeKey)
      .post('/kb/articles', { site_id: org.site.id, title: 'Gift cards', status: 'published' })
      .expect(201);
    await api(writeKey)
      .post('/kb/articles', { site_id: org.site.id, title: 'Draft notes' })
      .expect(201);

    const list = await api(readKey).get('/kb/articles?per_page=2').expect(200);
    expect(list.body).toMatchObject({
      status: true,
      current_page: 1,
      per_page: 2,
      total: 3,
      last_page: 2,
      links: {
        first: `${PUBLIC_URL}/api/v1/kb/articles?per_page=2&page=1`,
        next: `${PUBLIC_URL}/api/v1/kb/articles?per_page=2&page=2`,
        prev: null,
      },
    });
    expect(list.body.data.map((a: { title: string }) => a.title)).toEqual([
      'Draft notes',
      'Gift cards',
    ]);
    const published = await api(readKey)
      .get(`/kb/articles?status=published&site_id=${org.site.id}&locale=en`)
      .expect(200);
    expect(published.body.data.map((a: { title: string }) => a.title)).toEqual([
      'Gift cards',
      'Track your order',
    ]);
    const search = await api(readKey).get('/kb/articles?q=zebra').expect(200);
    expect(search.body.data).toEqual([]);
    const found = await api(readKey).get('/kb/articles?q=tracking').expect(200);
    expect(found.body.data.map((a: { title: string }) => a.title)).toEqual(['Track your order']);
    expect(found.body.data[0].snippet).toContain('<mark>tracking</mark>');
    const typo = await api(readKey).get('/kb/articles?q=track%20yuor%20order').expect(200);
    expect(typo.body.data.map((a: { title: string }) => a.title)).toContain('Track your order');
    await api(readKey).get('/kb/articles?status=nope').expect(422);
    await api(readKey).get('/kb/articles?per_page=500').expect(422);

    // Another organization's key sees and changes nothing of it.
    await api(otherKey).get(`/kb/articles/${id}`).expect(404);
    await api(otherKey).patch(`/kb/articles/${id}`, { title: 'Mine' }).expect(404);
    const theirs = await api(otherKey).get('/kb/articles?q=tracking').expect(200);
    expect(theirs.body.total).toBe(0);
    const foreignSite = await api(otherKey)
      .post('/kb/articles', { site_id: org.site.id, title: 'x' })
      .expect(422);
    expect(Object.keys(foreignSite.body.errors)).toEqual(['site_id']);
  });

  it('replays an idempotent create', async () => {
    const send = () =>
      request(app.url)
        .post('/api/v1/kb/articles')
        .set('Authorization', `Bearer ${bothKey}`)
        .set('Idempotency-Key', 'kb-create-1')
        .send({ site_id: org.site.id, title: 'Once only' });
    const first = await send().expect(201);
    const second = await send().expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
  });

  it('delivers kb.article_published to subscribed webhooks when an article becomes published', async () => {
    const titles = () =>
      receiver.received.map(
        (entry) => (entry.body.data as { article: { title: string } }).article.title,
      );
    await eventually(
      async () => titles().includes('Gift cards') && titles().includes('Track your order'),
    );
    const hook = receiver.received.find(
      (entry) =>
        (entry.body.data as { article: { title: string } }).article.title === 'Track your order',
    );
    expect(hook?.headers['x-service-event']).toBe('kb.article_published');
    expect(hook?.body).toMatchObject({
      event: 'kb.article_published',
      data: {
        organization_id: org.organization.id,
        article: {
          site_id: org.site.id,
          locale: 'en',
          slug: 'track-your-order',
          url: `${PUBLIC_URL}/help/${org.site.widget_key}/en/articles/track-your-order`,
        },
      },
    });
    // Drafts were never announced.
    expect(titles()).not.toContain('Draft notes');
    expect(titles().filter((title) => title === 'Track your order')).toHaveLength(1);
  });
});
