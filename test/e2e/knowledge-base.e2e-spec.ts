import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import {
  addMember,
  createSite,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const PUBLIC_URL = 'https://chat.example.test';

/** The knowledge base's agent API (DESIGN section 10) and the help-center settings of a site. */
describe('agent API: knowledge base', () => {
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
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
    delete: (url: string) => request(app.url).delete(url).set('Authorization', `Bearer ${token}`),
  });

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ PUBLIC_URL }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    agent = await addMember(app.url, org.token, 'agent');
  });

  afterAll(() => suite?.stop());

  it('help-center settings: PATCH changes the keys it names, GET returns them with the address', async () => {
    const before = await as(org.token).get(`/api/agent/sites/${org.site.id}`).expect(200);
    expect(before.body.data.help_center).toEqual({
      enabled: false,
      title: null,
      locales: ['en'],
      default_locale: 'en',
      url: `${PUBLIC_URL}/help/${org.site.widget_key}/`,
    });
    const patched = await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, {
        help_center: { enabled: true, locales: ['en', 'de'], title: 'Acme Help' },
      })
      .expect(200);
    expect(patched.body.data.help_center).toMatchObject({
      enabled: true,
      title: 'Acme Help',
      locales: ['en', 'de'],
      default_locale: 'en',
    });
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { default_locale: 'de' } })
      .expect(200);
    const read = await as(org.token).get(`/api/agent/sites/${org.site.id}`).expect(200);
    expect(read.body.data.help_center).toMatchObject({
      enabled: true,
      title: 'Acme Help',
      locales: ['en', 'de'],
      default_locale: 'de',
    });

    const outside = await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { default_locale: 'fr' } })
      .expect(422);
    expect(Object.keys(outside.body.errors)).toEqual(['help_center.default_locale']);
    const unknown = await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { locales: ['xx'] } })
      .expect(422);
    expect(Object.keys(unknown.body.errors)[0]).toMatch(/^help_center\.locales/);
    await as(agent.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { enabled: false } })
      .expect(403);
    // Back to English as the default for the rest of the file.
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { default_locale: 'en' } })
      .expect(200);
  });

  it('categories: admins write, every member reads, slugs unique per site and locale', async () => {
    const created = await as(org.token)
      .post('/api/agent/kb/categories', { site_id: org.site.id, name: 'Billing & Plans' })
      .expect(201);
    expect(created.body).toMatchObject({
      message: 'Category created.',
      data: { site_id: org.site.id, locale: 'en', name: 'Billing & Plans', slug: 'billing-plans' },
    });
    const clash = await as(org.token)
      .post('/api/agent/kb/categories', {
        site_id: org.site.id,
        name: 'Other',
        slug: 'billing-plans',
      })
      .expect(409);
    expect(clash.body.error_code).toBe('conflict');
    // The same slug in another locale is another category.
    await as(org.token)
      .post('/api/agent/kb/categories', {
        site_id: org.site.id,
        locale: 'de',
        name: 'Abrechnung',
        slug: 'billing-plans',
      })
      .expect(201);
    await as(agent.token)
      .post('/api/agent/kb/categories', { site_id: org.site.id, name: 'Nope' })
      .expect(403);
    const list = await as(agent.token)
      .get(`/api/agent/kb/categories?site_id=${org.site.id}&locale=en`)
      .expect(200);
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Billing & Plans']);
    const renamed = await as(org.token)
      .patch(`/api/agent/kb/categories/${created.body.data.id}`, {
        position: 3,
        description: 'Money',
      })
      .expect(200);
    expect(renamed.body.data).toMatchObject({ position: 3, description: 'Money' });
    // Another organization's site or category: 422 and 404.
    const foreign = await as(org.token)
      .post('/api/agent/kb/categories', { site_id: other.site.id, name: 'X' })
      .expect(422);
    expect(Object.keys(foreign.body.errors)).toEqual(['site_id']);
    await as(other.token)
      .patch(`/api/agent/kb/categories/${created.body.data.id}`, { name: 'x' })
      .expect(404);
    await as(other.token).delete(`/api/agent/kb/categories/${created.body.data.id}`).expect(404);
    const theirs = await as(other.token).get('/api/agent/kb/categories').expect(200);
    expect(theirs.body.total).toBe(0);
  });

  it('articles: drafts by default, slug from the title, unique per site and locale (409), url is the public address', async () => {
    const category = await as(org.token)
      .post('/api/agent/kb/categories', { site_id: org.site.id, name: 'Account' })
      .expect(201);
    const created = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Reset your password',
        body: '# Steps\n\nOpen **Settings** and choose *Reset*.',
        excerpt: 'How to get back in',
        category_id: category.body.data.id,
      })
      .expect(201);
    const article = created.body.data;
    expect(article).toMatchObject({
      site_id: org.site.id,
      locale: 'en',
      title: 'Reset your password',
      slug: 'reset-your-password',
      status: 'draft',
      category_id: category.body.data.id,
      translation_of: null,
      views: 0,
      helpful: 0,
      not_helpful: 0,
      source_url: null,
      published_at: null,
      translations: [],
      url: `${PUBLIC_URL}/help/${org.site.widget_key}/en/articles/reset-your-password`,
    });
    expect(article.html).toBe(
      '<h1>Steps</h1>\n<p>Open <strong>Settings</strong> and choose <em>Reset</em>.</p>\n',
    );

    const clash = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id, title: 'Reset your password' })
      .expect(409);
    expect(clash.body).toMatchObject({
      error_code: 'conflict',
      message: 'Another article of this site and locale already uses this slug.',
    });
    // The same slug in another locale, or on another site, is fine.
    await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        locale: 'de',
        title: 'Passwort',
        slug: 'reset-your-password',
      })
      .expect(201);
    const second = await createSite(app.url, org.token, { name: 'Second shop' });
    await as(org.token)
      .post('/api/agent/kb/articles', { site_id: second.id, title: 'Reset your password' })
      .expect(201);
    // A PATCH onto a taken slug: 409 too.
    const another = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id, title: 'Change your email' })
      .expect(201);
    await as(org.token)
      .patch(`/api/agent/kb/articles/${another.body.data.id}`, { slug: 'reset-your-password' })
      .expect(409);

    // A category of another locale does not fit.
    const wrongCategory = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        locale: 'de',
        title: 'Konto',
        category_id: category.body.data.id,
      })
      .expect(422);
    expect(Object.keys(wrongCategory.body.errors)).toEqual(['category_id']);

    const untitled = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id })
      .expect(422);
    expect(Object.keys(untitled.body.errors)).toEqual(['title']);
    const unnamed = await as(org.token)
      .post('/api/agent/kb/categories', { site_id: org.site.id })
      .expect(422);
    expect(Object.keys(unnamed.body.errors)).toEqual(['name']);
    const badSlug = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id, title: 'x', slug: 'Not A Slug' })
      .expect(422);
    expect(Object.keys(badSlug.body.errors)).toEqual(['slug']);

    // Every member reads; only owners and admins write.
    await as(agent.token).get(`/api/agent/kb/articles/${article.id}`).expect(200);
    await as(agent.token)
      .patch(`/api/agent/kb/articles/${article.id}`, { title: 'Nope' })
      .expect(403);
    await as(agent.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id, title: 'Nope' })
      .expect(403);
    await as(agent.token).delete(`/api/agent/kb/articles/${article.id}`).expect(403);

    // Another organization sees none of it.
    await as(other.token).get(`/api/agent/kb/articles/${article.id}`).expect(404);
    await as(other.token).patch(`/api/agent/kb/articles/${article.id}`, { title: 'x' }).expect(404);
    await as(other.token).delete(`/api/agent/kb/articles/${article.id}`).expect(404);
    const theirs = await as(other.token).get('/api/agent/kb/articles').expect(200);
    expect(theirs.body.total).toBe(0);
    const foreignSite = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: other.site.id, title: 'x' })
      .expect(422);
    expect(Object.keys(foreignSite.body.errors)).toEqual(['site_id']);
  });

  it('articles: the body is at most 100 000 characters (422 naming body)', async () => {
    await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Long but fine',
        body: 'a'.repeat(100_000),
      })
      .expect(201);
    const tooLong = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Too long',
        body: 'a'.repeat(100_001),
      })
      .expect(422);
    expect(Object.keys(tooLong.body.errors)).toEqual(['body']);
  });

  it('renders Markdown with raw HTML off: <script> stays text, javascript: and data: links are no links', async () => {
    const created = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Hostile',
        body: [
          'Hello <script>alert(1)</script> <img src=x onerror=alert(2)>',
          '',
          '[click](javascript:alert(3)) [data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.com/x)',
          '',
          'Visit https://docs.example.com today.',
        ].join('\n'),
      })
      .expect(201);
    const html: string = created.body.data.html;
    expect(html).not.toMatch(/<script|<img|<[^>]*onerror/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).toContain('<a href="https://example.com/x" rel="nofollow noopener">ok</a>');
    expect(html).toContain(
      '<a href="https://docs.example.com" rel="nofollow noopener">https://docs.example.com</a>',
    );
  });

  it('translations link articles of the same site in other locales, grouped on the original', async () => {
    const en = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id, title: 'Shipping times' })
      .expect(201);
    const de = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        locale: 'de',
        title: 'Lieferzeiten',
        translation_of: en.body.data.id,
      })
      .expect(201);
    expect(de.body.data.translation_of).toBe(en.body.data.id);
    // A translation of the translation joins the original's group.
    const fr = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        locale: 'fr',
        title: 'Délais de livraison',
        translation_of: de.body.data.id,
      })
      .expect(201);
    expect(fr.body.data).toMatchObject({
      translation_of: en.body.data.id,
      slug: 'delais-de-livraison',
    });
    const read = await as(org.token).get(`/api/agent/kb/articles/${en.body.data.id}`).expect(200);
    expect(read.body.data.translations.map((t: { locale: string }) => t.locale)).toEqual([
      'de',
      'fr',
    ]);

    // The same locale twice in a group, another site, or another organization: 422.
    const sameLocale = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Shipping times again',
        translation_of: en.body.data.id,
      })
      .expect(422);
    expect(Object.keys(sameLocale.body.errors)).toEqual(['translation_of']);
    const second = await createSite(app.url, org.token, { name: 'Third shop' });
    const otherSite = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: second.id,
        locale: 'de',
        title: 'Lieferzeiten',
        translation_of: en.body.data.id,
      })
      .expect(422);
    expect(Object.keys(otherSite.body.errors)).toEqual(['translation_of']);
    const theirs = await as(other.token)
      .post('/api/agent/kb/articles', {
        site_id: other.site.id,
        locale: 'de',
        title: 'Lieferzeiten',
        translation_of: en.body.data.id,
      })
      .expect(422);
    expect(Object.keys(theirs.body.errors)).toEqual(['translation_of']);
    // Unlinking.
    const unlinked = await as(org.token)
      .patch(`/api/agent/kb/articles/${fr.body.data.id}`, { translation_of: null })
      .expect(200);
    expect(unlinked.body.data).toMatchObject({ translation_of: null, translations: [] });
  });

  it('publishing sets published_at once and records kb.article_published once per publication', async () => {
    const created = await as(org.token)
      .post('/api/agent/kb/articles', { site_id: org.site.id, title: 'Returns policy' })
      .expect(201);
    const id = created.body.data.id;
    const published = await as(org.token)
      .patch(`/api/agent/kb/articles/${id}`, { status: 'published' })
      .expect(200);
    expect(published.body.data.status).toBe('published');
    const publishedAt = published.body.data.published_at;
    expect(publishedAt).not.toBeNull();
    // An edit of a published article publishes nothing new.
    await as(org.token).patch(`/api/agent/kb/articles/${id}`, { body: 'Thirty days.' }).expect(200);
    await as(org.token).patch(`/api/agent/kb/articles/${id}`, { status: 'archived' }).expect(200);
    const again = await as(org.token)
      .patch(`/api/agent/kb/articles/${id}`, { status: 'published' })
      .expect(200);
    expect(again.body.data.published_at).toBe(publishedAt);

    const events = (await outboxEvents(db, 'kb.article_published')).filter(
      (payload) => (payload as { article: { id: number } }).article.id === id,
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({
      organization_id: org.organization.id,
      article: {
        id,
        site_id: org.site.id,
        locale: 'en',
        title: 'Returns policy',
        slug: 'returns-policy',
        category_id: null,
        translation_of: null,
        published_at: publishedAt,
        url: `${PUBLIC_URL}/help/${org.site.widget_key}/en/articles/returns-policy`,
      },
    });
    // Created published: one event at once.
    const direct = await as(org.token)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Opening hours',
        status: 'published',
      })
      .expect(201);
    const directEvents = (await outboxEvents(db, 'kb.article_published')).filter(
      (payload) => (payload as { article: { id: number } }).article.id === direct.body.data.id,
    );
    expect(directEvents).toHaveLength(1);
  });

  it('lists filter by site, locale, status and category, newest first; delete removes', async () => {
    const list = await as(agent.token)
      .get(`/api/agent/kb/articles?site_id=${org.site.id}&locale=en&status=published`)
      .expect(200);
    expect(list.body.data.map((a: { title: string }) => a.title)).toEqual([
      'Opening hours',
      'Returns policy',
    ]);
    expect(list.body.data[0]).not.toHaveProperty('body');
    expect(list.body).toMatchObject({ current_page: 1, per_page: 50, total: 2 });
    await as(agent.token).get('/api/agent/kb/articles?status=live').expect(422);
    await as(agent.token).get('/api/agent/kb/articles?per_page=101').expect(422);

    const id = list.body.data[0].id;
    await as(org.token).delete(`/api/agent/kb/articles/${id}`).expect(200);
    await as(org.token).get(`/api/agent/kb/articles/${id}`).expect(404);
  });
});
