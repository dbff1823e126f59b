import request from 'supertest';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const PUBLIC_URL = 'https://chat.example.test';

/**
 * The knowledge base's one search (DESIGN section 10) through the agent list, and the widget's
 * Help view: search, suggestions, reading (views once per visitor and day) and feedback.
 */
describe('knowledge base: search and the widget', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;
  const ids: Record<string, number> = {};

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
  });

  const write = async (owner: Registered, key: string, article: Record<string, unknown>) => {
    const res = await as(owner.token)
      .post('/api/agent/kb/articles', { site_id: owner.site.id, status: 'published', ...article })
      .expect(201);
    ids[key] = res.body.data.id;
  };

  /** A visitor opens the widget: its session token. */
  const visitor = async (site: Registered['site']) => {
    const res = await request(app.url)
      .post('/api/widget/init')
      .send({ widget_key: site.widget_key })
      .expect(200);
    return res.body.session_token as string;
  };

  const titles = (body: { data: { title: string }[] }) => body.data.map((hit) => hit.title);

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, {
        help_center: { enabled: true, locales: ['en', 'de'] },
      })
      .expect(200);
    await write(org, 'reset', {
      title: 'Reset your password',
      excerpt: 'Locked out? Get back in.',
      body: 'Open **Settings**, choose Security and follow the link we mail you.',
    });
    await write(org, 'shipping', {
      title: 'Shipping and delivery',
      body: 'Parcels leave within two days. Your tracking page needs no password.',
    });
    await write(org, 'hostile', {
      title: 'Invoices',
      body: 'An invoice for 3 < 4 items <script>alert(1)</script> lists every invoice line & the total.',
    });
    await write(org, 'draft', {
      title: 'Password rotation draft',
      body: 'Secret plans about the password policy.',
      status: 'draft',
    });
    await write(org, 'de', {
      locale: 'de',
      title: 'Passwort zurücksetzen',
      body: 'Öffnen Sie die Einstellungen und folgen Sie dem Link.',
    });
    await write(other, 'theirs', {
      title: 'Reset your password',
      body: 'Their secret instructions for a password.',
    });
  });

  afterAll(() => suite?.stop());

  describe('search (the agent list with q)', () => {
    it('ranks a title match above a body match and marks the matches in an escaped snippet', async () => {
      const res = await as(org.token)
        .get(`/api/agent/kb/articles?site_id=${org.site.id}&q=password`)
        .expect(200);
      const order = titles(res.body);
      expect(order).toEqual(
        expect.arrayContaining(['Reset your password', 'Shipping and delivery']),
      );
      // Title matches (weight A) come before the body-only match (weight C).
      expect(order.indexOf('Reset your password')).toBeLessThan(
        order.indexOf('Shipping and delivery'),
      );
      expect(order.indexOf('Password rotation draft')).toBeLessThan(
        order.indexOf('Shipping and delivery'),
      );
      const shipping = res.body.data.find((hit: { id: number }) => hit.id === ids.shipping);
      expect(shipping.snippet).toContain('<mark>password</mark>');
    });

    it('forgives typos in titles and matches the last word as a prefix', async () => {
      const typo = await as(org.token)
        .get('/api/agent/kb/articles?q=pasword&locale=en')
        .expect(200);
      expect(titles(typo.body)).toContain('Reset your password');
      const prefix = await as(org.token).get('/api/agent/kb/articles?q=reset%20passw').expect(200);
      expect(titles(prefix.body)[0]).toBe('Reset your password');
      const nothing = await as(org.token).get('/api/agent/kb/articles?q=zebra').expect(200);
      expect(nothing.body).toMatchObject({ data: [], total: 0 });
    });

    it("searches in the article's language: German stems find German words", async () => {
      const res = await as(org.token).get('/api/agent/kb/articles?q=Einstellung').expect(200);
      expect(titles(res.body)).toEqual(['Passwort zurücksetzen']);
      const filtered = await as(org.token)
        .get('/api/agent/kb/articles?q=Einstellung&locale=de')
        .expect(200);
      expect(titles(filtered.body)).toEqual(['Passwort zurücksetzen']);
    });

    it('escapes the text of a snippet: only <mark> is markup', async () => {
      const res = await as(org.token).get('/api/agent/kb/articles?q=invoice').expect(200);
      const [hit] = res.body.data;
      expect(hit.title).toBe('Invoices');
      expect(hit.snippet).toContain('3 &lt; 4');
      expect(hit.snippet).toContain('&amp;');
      expect(hit.snippet).not.toContain('<script');
      expect(hit.snippet).toContain('<mark>invoice</mark>');
      expect(hit.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    });

    it("never finds another organization's articles", async () => {
      const res = await as(org.token)
        .get('/api/agent/kb/articles?q=secret%20instructions')
        .expect(200);
      expect(res.body.total).toBe(0);
      const theirs = await as(other.token).get('/api/agent/kb/articles?q=password').expect(200);
      expect(theirs.body.data.map((hit: { id: number }) => hit.id)).toEqual([ids.theirs]);
    });

    it('keeps its filters: status', async () => {
      const res = await as(org.token)
        .get('/api/agent/kb/articles?q=password&status=draft')
        .expect(200);
      expect(titles(res.body)).toEqual(['Password rotation draft']);
    });
  });

  describe('the widget', () => {
    it('needs the session token', async () => {
      await request(app.url).get('/api/widget/kb/search?q=password').expect(401);
    });

    it("searches the site's published articles only, in its locale, with snippets and addresses", async () => {
      const token = await visitor(org.site);
      const res = await request(app.url)
        .get('/api/widget/kb/search?q=password')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(res.body.suggested).toBe(false);
      expect(titles(res.body)).toEqual(['Reset your password', 'Shipping and delivery']);
      expect(res.body.data[0]).toEqual({
        id: ids.reset,
        locale: 'en',
        title: 'Reset your password',
        excerpt: 'Locked out? Get back in.',
        snippet: expect.any(String),
        url: `${PUBLIC_URL}/help/${org.site.widget_key}/en/articles/reset-your-password`,
      });
      const typo = await request(app.url)
        .get('/api/widget/kb/search?q=pasword')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(titles(typo.body)).toEqual(['Reset your password']);
      const german = await request(app.url)
        .get('/api/widget/kb/search?q=passwort&locale=de')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(titles(german.body)).toEqual(['Passwort zurücksetzen']);
      const drafts = await request(app.url)
        .get('/api/widget/kb/search?q=rotation')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(drafts.body.data).toEqual([]);
      const foreign = await request(app.url)
        .get('/api/widget/kb/search?q=instructions')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(foreign.body.data).toEqual([]);
      await request(app.url)
        .get('/api/widget/kb/search?locale=xx')
        .set('Authorization', `Bearer ${token}`)
        .expect(422);
    });

    it('reads a published article as HTML and counts a view once per visitor and day', async () => {
      const first = await visitor(org.site);
      const second = await visitor(org.site);
      const read = await request(app.url)
        .get(`/api/widget/kb/articles/${ids.shipping}`)
        .set('Authorization', `Bearer ${first}`)
        .expect(200);
      expect(read.body.data).toMatchObject({
        id: ids.shipping,
        title: 'Shipping and delivery',
        html: '<p>Parcels leave within two days. Your tracking page needs no password.</p>\n',
      });
      await request(app.url)
        .get(`/api/widget/kb/articles/${ids.shipping}`)
        .set('Authorization', `Bearer ${first}`)
        .expect(200);
      await request(app.url)
        .get(`/api/widget/kb/articles/${ids.shipping}`)
        .set('Authorization', `Bearer ${second}`)
        .expect(200);
      const counted = await as(org.token).get(`/api/agent/kb/articles/${ids.shipping}`).expect(200);
      expect(counted.body.data.views).toBe(2);

      // Drafts and other organizations' articles are not there.
      await request(app.url)
        .get(`/api/widget/kb/articles/${ids.draft}`)
        .set('Authorization', `Bearer ${first}`)
        .expect(404);
      await request(app.url)
        .get(`/api/widget/kb/articles/${ids.theirs}`)
        .set('Authorization', `Bearer ${first}`)
        .expect(404);

      // Without q: suggestions, the most viewed first.
      const suggested = await request(app.url)
        .get('/api/widget/kb/search')
        .set('Authorization', `Bearer ${first}`)
        .expect(200);
      expect(suggested.body.suggested).toBe(true);
      expect(titles(suggested.body)[0]).toBe('Shipping and delivery');
      expect(titles(suggested.body)).not.toContain('Password rotation draft');
      expect(titles(suggested.body)).not.toContain('Passwort zurücksetzen');
    });

    it('takes "Was this helpful?" once per visitor and article (409 the second time)', async () => {
      const first = await visitor(org.site);
      const second = await visitor(org.site);
      const answered = await request(app.url)
        .post(`/api/widget/kb/articles/${ids.reset}/feedback`)
        .set('Authorization', `Bearer ${first}`)
        .send({ helpful: true })
        .expect(200);
      expect(answered.body).toMatchObject({ status: true, data: { helpful: true } });
      const again = await request(app.url)
        .post(`/api/widget/kb/articles/${ids.reset}/feedback`)
        .set('Authorization', `Bearer ${first}`)
        .send({ helpful: false })
        .expect(409);
      expect(again.body.error_code).toBe('conflict');
      await request(app.url)
        .post(`/api/widget/kb/articles/${ids.reset}/feedback`)
        .set('Authorization', `Bearer ${second}`)
        .send({ helpful: false })
        .expect(200);
      const invalid = await request(app.url)
        .post(`/api/widget/kb/articles/${ids.reset}/feedback`)
        .set('Authorization', `Bearer ${second}`)
        .send({ helpful: 'yes' })
        .expect(422);
      expect(Object.keys(invalid.body.errors)).toEqual(['helpful']);
      await request(app.url)
        .post(`/api/widget/kb/articles/${ids.draft}/feedback`)
        .set('Authorization', `Bearer ${second}`)
        .send({ helpful: true })
        .expect(404);
      const counts = await as(org.token).get(`/api/agent/kb/articles/${ids.reset}`).expect(200);
      expect(counts.body.data).toMatchObject({ helpful: 1, not_helpful: 1 });
    });
  });
});
