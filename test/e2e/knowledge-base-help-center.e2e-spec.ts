import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { LOADER_STYLE } from '../../web/widget/src/loader/style';
import { registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

const PUBLIC_URL = 'https://chat.example.test';

/** The public help center (DESIGN section 10): pages, their head, the policy, and the 404s. */
describe('help center', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let other: Registered;
  let base: string;
  const ids: Record<string, number> = {};

  const as = (token: string) => ({
    post: (url: string, body: object) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
  });
  const page = (path: string) => request(app.url).get(path).set('Accept', 'text/html');
  const head = (html: string, pattern: RegExp) => html.match(pattern)?.[1];
  const links = (html: string, rel: string) =>
    [
      ...html.matchAll(new RegExp(`<link rel="${rel}" hreflang="([^"]+)" href="([^"]+)">`, 'g')),
    ].map(([, lang, href]) => [lang, href]);

  beforeAll(async () => {
    ({ app } = suite = await startTestApp({ PUBLIC_URL }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    base = `/help/${org.site.widget_key}`;
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, {
        name: 'Acme <Shop>',
        widget_settings: { appearance: { color: '#0f766e' } },
        help_center: { enabled: true, locales: ['en', 'de', 'ar'], title: 'Acme Help' },
      })
      .expect(200);
    const category = await as(org.token)
      .post('/api/agent/kb/categories', {
        site_id: org.site.id,
        name: 'Account & login',
        description: 'Passwords, sign-in <and> more',
      })
      .expect(201);
    const write = async (key: string, body: Record<string, unknown>) => {
      const res = await as(org.token)
        .post('/api/agent/kb/articles', { site_id: org.site.id, status: 'published', ...body })
        .expect(201);
      ids[key] = res.body.data.id;
    };
    await write('en', {
      title: 'Reset your "password" <now>',
      slug: 'reset-password',
      excerpt: 'Get back into your account in two minutes.',
      body: 'Open **Settings**.\n\n<script>alert(1)</script> [x](javascript:alert(2))',
      category_id: category.body.data.id,
    });
    await write('de', {
      locale: 'de',
      title: 'Passwort zurücksetzen',
      slug: 'passwort-zuruecksetzen',
      body: 'Öffnen Sie die Einstellungen.',
      translation_of: ids.en,
    });
    await write('fr', {
      locale: 'fr',
      title: 'Réinitialiser le mot de passe',
      body: 'Ouvrez les paramètres.',
      translation_of: ids.en,
    });
    await write('draft', { title: 'Secret draft', slug: 'secret-draft', status: 'draft' });
    await write('archived', { title: 'Old news', slug: 'old-news', status: 'archived' });
    await write('loose', { title: 'Opening hours', body: 'We are open 9 to 5.' });
    const theirs = await as(other.token)
      .post('/api/agent/kb/articles', {
        site_id: other.site.id,
        title: 'Their article',
        slug: 'their-article',
        status: 'published',
      })
      .expect(201);
    ids.theirs = theirs.body.data.id;
  });

  afterAll(() => suite?.stop());

  it('/help/<key>/ redirects to the default locale', async () => {
    const res = await page(`${base}/`).expect(302);
    expect(res.headers.location).toBe(`${PUBLIC_URL}${base}/en/`);
  });

  it('serves an article with title, description, canonical, hreflang, brand and the widget, all escaped', async () => {
    const res = await page(`${base}/en/articles/reset-password`).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.text;
    expect(head(html, /<title>([^<]*)<\/title>/)).toBe(
      'Reset your &quot;password&quot; &lt;now&gt; · Acme Help · Help center',
    );
    expect(head(html, /<meta name="description" content="([^"]*)">/)).toBe(
      'Get back into your account in two minutes.',
    );
    expect(head(html, /<link rel="canonical" href="([^"]+)">/)).toBe(
      `${PUBLIC_URL}${base}/en/articles/reset-password`,
    );
    // Its published translations in the help center's locales (French is not one), and x-default.
    expect(links(html, 'alternate')).toEqual([
      ['de', `${PUBLIC_URL}${base}/de/articles/passwort-zuruecksetzen`],
      ['en', `${PUBLIC_URL}${base}/en/articles/reset-password`],
      ['x-default', `${PUBLIC_URL}${base}/en/articles/reset-password`],
    ]);
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('<h1>Reset your &quot;password&quot; &lt;now&gt;</h1>');
    expect(html).toContain('--brand:#0f766e');
    expect(html).toContain('Acme &lt;Shop&gt;');
    expect(html).toContain('Account &amp; login');
    // The body: rendered Markdown, raw HTML as text, no javascript: link.
    expect(html).toContain('<p>Open <strong>Settings</strong>.</p>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script>alert|href="javascript:/);
    expect(html).toContain('Still need help? Chat with us');
    // The one script: the loader with the site's key, carrying the policy's nonce.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag);
    expect(scripts).toHaveLength(1);
    const nonce = head(scripts[0], /nonce="([^"]+)"/);
    expect(scripts[0]).toContain(`src="${PUBLIC_URL}/widget.js"`);
    expect(scripts[0]).toContain(`data-widget-key="${org.site.widget_key}"`);

    const policy = res.headers['content-security-policy'];
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src 'nonce-${nonce}'`);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain(`frame-src ${PUBLIC_URL}`);
    // Its styles: the page's own stylesheet and the launcher's, by hash.
    const css = head(html, /<style>([\s\S]*?)<\/style>/)!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(policy).toContain(`style-src ${hash(css)} ${hash(LOADER_STYLE)}`);
    expect(html).not.toMatch(/ style="/);
    // A fresh nonce every time.
    const again = await page(`${base}/en/articles/reset-password`).expect(200);
    expect(again.headers['content-security-policy']).not.toBe(policy);
    // Small: HTML and CSS together well under 30 KB gzipped.
    expect(gzipSync(html).length).toBeLessThan(30 * 1024);
  });

  it('links a translation back, right to left in Arabic', async () => {
    const de = await page(`${base}/de/articles/passwort-zuruecksetzen`).expect(200);
    expect(links(de.text, 'alternate')).toEqual([
      ['de', `${PUBLIC_URL}${base}/de/articles/passwort-zuruecksetzen`],
      ['en', `${PUBLIC_URL}${base}/en/articles/reset-password`],
      ['x-default', `${PUBLIC_URL}${base}/en/articles/reset-password`],
    ]);
    expect(de.text).toContain('Brauchen Sie noch Hilfe? Chatten Sie mit uns');
    const ar = await page(`${base}/ar/`).expect(200);
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
  });

  it('home lists categories with their articles and a search box; category pages list theirs', async () => {
    const home = await page(`${base}/en/`).expect(200);
    expect(head(home.text, /<title>([^<]*)<\/title>/)).toBe('Acme Help · Help center');
    expect(head(home.text, /<link rel="canonical" href="([^"]+)">/)).toBe(
      `${PUBLIC_URL}${base}/en/`,
    );
    expect(links(home.text, 'alternate')).toEqual([
      ['en', `${PUBLIC_URL}${base}/en/`],
      ['de', `${PUBLIC_URL}${base}/de/`],
      ['ar', `${PUBLIC_URL}${base}/ar/`],
      ['x-default', `${PUBLIC_URL}${base}/en/`],
    ]);
    expect(home.text).toContain(`href="${PUBLIC_URL}${base}/en/categories/account-login"`);
    expect(home.text).toContain('Passwords, sign-in &lt;and&gt; more');
    expect(home.text).toContain('Opening hours');
    expect(home.text).toMatch(
      /<form class="search" role="search" method="get" action="[^"]+\/en\/search">/,
    );
    expect(home.text).not.toContain('Secret draft');
    expect(home.text).not.toContain('Old news');
    expect(home.text).not.toContain('Their article');

    const category = await page(`${base}/en/categories/account-login`).expect(200);
    expect(head(category.text, /<title>([^<]*)<\/title>/)).toBe(
      'Account &amp; login · Acme Help · Help center',
    );
    expect(head(category.text, /<link rel="canonical" href="([^"]+)">/)).toBe(
      `${PUBLIC_URL}${base}/en/categories/account-login`,
    );
    expect(category.text).toContain(`${base}/en/articles/reset-password"`);
  });

  it('searches published articles of the locale, with escaped marks, typos forgiven', async () => {
    const res = await page(`${base}/en/search?q=pasword`).expect(200);
    expect(res.text).toContain('reset-password"');
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    const hostile = await page(`${base}/en/search?q=${encodeURIComponent('<b>x</b>"')}`).expect(
      200,
    );
    expect(hostile.text).toContain('&lt;b&gt;x&lt;/b&gt;&quot;');
    expect(hostile.text).not.toContain('<b>x</b>');
    const drafts = await page(`${base}/en/search?q=secret`).expect(200);
    expect(drafts.text).not.toContain('Secret draft');
    const theirs = await page(`${base}/en/search?q=their`).expect(200);
    expect(theirs.text).not.toContain('Their article');
    const marked = await page(`${base}/en/search?q=open`).expect(200);
    expect(marked.text).toContain('<mark>');
  });

  it('answers 404 pages, styled, for drafts, archived, other sites, other locales and unknown keys', async () => {
    const missing = [
      `${base}/en/articles/secret-draft`,
      `${base}/en/articles/old-news`,
      `${base}/en/articles/their-article`,
      `/help/${other.site.widget_key}/en/articles/their-article`,
      `${base}/fr/articles/reinitialiser-le-mot-de-passe`,
      `${base}/fr/`,
      `${base}/xx/`,
      `${base}/en/categories/nothing`,
      `${base}/en/articles/reset-password/more`,
      '/help/wk_unknown/en/',
      '/help/wk_unknown/',
      '/help/wk_unknown/sitemap.xml',
    ];
    for (const path of missing) {
      const res = await page(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('Page not found');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
    // A help center that is off: everything is 404, its sitemap too.
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { enabled: false } })
      .expect(200);
    await page(`${base}/`).expect(404);
    await page(`${base}/en/articles/reset-password`).expect(404);
    await request(app.url).get(`${base}/sitemap.xml`).expect(404);
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, { help_center: { enabled: true } })
      .expect(200);
  });

  it('lists the published pages in sitemap.xml', async () => {
    const res = await request(app.url).get(`${base}/sitemap.xml`).expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        `${PUBLIC_URL}${base}/en/`,
        `${PUBLIC_URL}${base}/de/`,
        `${PUBLIC_URL}${base}/en/articles/reset-password`,
        `${PUBLIC_URL}${base}/de/articles/passwort-zuruecksetzen`,
        `${PUBLIC_URL}${base}/en/categories/account-login`,
      ]),
    );
    expect(locs.join(' ')).not.toMatch(/secret-draft|old-news|their-article|\/fr\//);
  });
});
