import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually, startApp } from '../utils/app-process';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

/**
 * The help center's pages and the visitors' searches are kept in memory per instance (help
 * centers are read far more than written): every change to a site's settings, articles or
 * categories, made on any instance, must show on every instance at once, never a page from
 * before it.
 */
describe('help center and visitor searches kept in memory, forgotten on every change', () => {
  let databaseUrl: string;
  let apps: AppProcess[] = [];
  let org: Registered;
  let visitorToken: string;

  const as = (app: AppProcess) => ({
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${org.token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${org.token}`).send(body),
    delete: (url: string) =>
      request(app.url).delete(url).set('Authorization', `Bearer ${org.token}`),
  });

  /** The help center's search page on `app`: the titles of its hits. */
  const helpTitles = async (app: AppProcess, q: string): Promise<string[]> => {
    const res = await request(app.url)
      .get(`/help/${org.site.widget_key}/en/search`)
      .query({ q })
      .expect(200);
    return [...res.text.matchAll(/<li><a href="[^"]*\/articles\/[^"]*">([^<]*)<\/a>/g)].map(
      (m) => m[1],
    );
  };

  /** The widget's Help view search on `app`: the titles of its hits. */
  const widgetTitles = async (app: AppProcess, q: string): Promise<string[]> => {
    const res = await request(app.url)
      .get('/api/widget/kb/search')
      .query({ q })
      .set('Authorization', `Bearer ${visitorToken}`)
      .expect(200);
    return (res.body.data as { title: string }[]).map((hit) => hit.title);
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    apps = await Promise.all([0, 1].map(() => startApp({ DATABASE_URL: databaseUrl })));
    org = await registerOrganization(apps[0].url, 'Acme');
    await as(apps[0])
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { enabled: true } })
      .expect(200);
    const init = await request(apps[0].url)
      .post('/api/widget/init')
      .send({ widget_key: org.site.widget_key })
      .expect(200);
    visitorToken = init.body.session_token as string;
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dropTestDatabase(databaseUrl);
  });

  it('shows a publish, an edit, an unpublish and a delete made on one instance in the next search on both', async () => {
    const [first, second] = apps;
    const created = await as(first)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Refunds in five days',
        body: 'Refunds reach your card within five working days.',
        status: 'draft',
      })
      .expect(201);
    const id = created.body.data.id as number;
    // Both instances have searched (and kept) "refunds" while it is a draft: no hit.
    for (const app of apps) {
      expect(await helpTitles(app, 'refunds')).toEqual([]);
      expect(await widgetTitles(app, 'refunds')).toEqual([]);
      // Asked again: the kept answer, still nothing.
      expect(await helpTitles(app, 'refunds')).toEqual([]);
    }

    await as(second).patch(`/api/agent/kb/articles/${id}`, { status: 'published' }).expect(200);
    // This instance at once; the other within its notification's round trip.
    expect(await helpTitles(second, 'refunds')).toEqual(['Refunds in five days']);
    await eventually(async () => (await helpTitles(first, 'refunds')).length === 1, 2_000);
    expect(await widgetTitles(first, 'refunds')).toEqual(['Refunds in five days']);

    await as(first).patch(`/api/agent/kb/articles/${id}`, { title: 'Refunds in three days' });
    await eventually(
      async () => (await helpTitles(second, 'refunds'))[0] === 'Refunds in three days',
      2_000,
    );
    expect(await widgetTitles(second, 'refunds')).toEqual(['Refunds in three days']);

    await as(first).patch(`/api/agent/kb/articles/${id}`, { status: 'archived' }).expect(200);
    await eventually(async () => (await widgetTitles(second, 'refunds')).length === 0, 2_000);
    expect(await helpTitles(second, 'refunds')).toEqual([]);

    await as(second).patch(`/api/agent/kb/articles/${id}`, { status: 'published' }).expect(200);
    await eventually(async () => (await helpTitles(first, 'refunds')).length === 1, 2_000);
    await as(second).delete(`/api/agent/kb/articles/${id}`).expect(200);
    await eventually(async () => (await helpTitles(first, 'refunds')).length === 0, 2_000);
    expect(await widgetTitles(first, 'refunds')).toEqual([]);
  });

  it('keeps the words apart: another query, case and spacing aside, is its own search', async () => {
    const [first] = apps;
    await as(first)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Shipping to Norway',
        body: 'We ship to Norway in four days.',
        status: 'published',
      })
      .expect(201);
    expect(await helpTitles(first, 'norway')).toEqual(['Shipping to Norway']);
    expect(await helpTitles(first, '  NORWAY ')).toEqual(['Shipping to Norway']);
    expect(await helpTitles(first, 'refunds')).toEqual([]);
  });

  it('shows an edited article and a help center switched off, changed on one instance, on the other', async () => {
    const [first, second] = apps;
    await as(first)
      .post('/api/agent/kb/articles', {
        site_id: org.site.id,
        title: 'Opening hours',
        slug: 'opening-hours',
        body: 'We are open from 9 to 5.',
        status: 'published',
      })
      .expect(201);
    const articlePage = (app: AppProcess) =>
      request(app.url).get(`/help/${org.site.widget_key}/en/articles/opening-hours`);
    // Read twice on the first instance: the second read is the kept page.
    for (let i = 0; i < 2; i++)
      expect((await articlePage(first).expect(200)).text).toContain('We are open from 9 to 5.');
    const list = await request(second.url)
      .get('/api/agent/kb/articles')
      .query({ q: 'opening hours' })
      .set('Authorization', `Bearer ${org.token}`)
      .expect(200);
    const id = (list.body.data as { id: number }[])[0].id;
    await as(second)
      .patch(`/api/agent/kb/articles/${id}`, { body: 'We are open from 8 to 6.' })
      .expect(200);
    await eventually(
      async () => (await articlePage(first).expect(200)).text.includes('from 8 to 6'),
      2_000,
    );

    // The site's colour and then the help center itself, changed on the second instance.
    await as(second)
      .patch(`/api/agent/sites/${org.site.id}`, {
        widget_settings: { appearance: { color: '#7c3aed' } },
      })
      .expect(200);
    await eventually(
      async () => (await articlePage(first).expect(200)).text.includes('#7c3aed'),
      2_000,
    );
    await as(second)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { enabled: false } })
      .expect(200);
    await eventually(async () => (await articlePage(first)).status === 404, 2_000);
    expect((await request(first.url).get(`/help/${org.site.widget_key}/en/`)).status).toBe(404);
  });
});
