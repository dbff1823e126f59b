import type { Pool } from 'pg';
import request from 'supertest';
import {
  createApiKey,
  addMember,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { startRequestLog, startTestWebsite, type TestWebsite } from '../utils/test-website';

interface ImportState {
  status: string;
  progress: number;
  progress_label: string;
  summary: { pages: number; kb_articles: number; bot_replies: number };
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
}

/** DESIGN section 11: a site's pages read into bot replies (and articles), over HTTP. */
describe('content import and bot replies', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let website: TestWebsite;
  let offSite: TestWebsite;
  let refused: TestWebsite;
  let org: Registered;
  let other: Registered;
  let agent: { token: string };

  const as = (token: string) => ({
    get: (url: string) => request(app.url).get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string, body: object = {}) =>
      request(app.url).post(url).set('Authorization', `Bearer ${token}`).send(body),
    patch: (url: string, body: object) =>
      request(app.url).patch(url).set('Authorization', `Bearer ${token}`).send(body),
    delete: (url: string) => request(app.url).delete(url).set('Authorization', `Bearer ${token}`),
  });
  const importOf = (site: number) => `/api/agent/sites/${site}/content-import`;
  const finished = (site: number, token = org.token) =>
    eventually(async () => {
      const res = await as(token).get(importOf(site)).expect(200);
      const state = res.body.data as ImportState;
      return ['completed', 'failed', 'cancelled'].includes(state.status) ? state : undefined;
    }, 45_000);

  beforeAll(async () => {
    offSite = await startRequestLog();
    refused = await startRequestLog();
    website = await startTestWebsite({
      offSite: offSite.url,
      // On the site's allowed domains, but loopback and not in CRAWL_ALLOWED_HOSTS.
      loopbackLink: `http://localhost:${refused.port}/internal`,
    });
    ({ app, db } = suite = await startTestApp({
      CRAWL_ALLOWED_HOSTS: `127.0.0.1:${website.port}`,
      CRAWL_DELAY_MS: '10',
      CRAWL_PAGE_TIMEOUT_MS: '1500',
    }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    agent = await addMember(app.url, org.token, 'agent');
    await as(org.token)
      .patch(`/api/agent/sites/${org.site.id}`, {
        allowed_domains: [`127.0.0.1:${website.port}`, `localhost:${refused.port}`],
      })
      .expect(200);
  });

  afterAll(async () => {
    await suite?.stop();
    await Promise.all([website?.close(), offSite?.close(), refused?.close()]);
  });

  it('reads the site politely into bot replies, and the summary counts what was stored', async () => {
    expect((await as(org.token).get(importOf(org.site.id)).expect(200)).body.data).toMatchObject({
      status: 'not_started',
      summary: { pages: 0, kb_articles: 0, bot_replies: 0 },
    });
    const started = await as(org.token)
      .post(importOf(org.site.id), { start_url: `${website.url}/`, max_pages: 100 })
      .expect(202);
    expect(started.body).toMatchObject({
      message: 'Content import started.',
      data: { status: 'queued' },
    });
    // One crawl per site at a time.
    const again = await as(org.token)
      .post(importOf(org.site.id), { start_url: `${website.url}/` })
      .expect(409);
    expect(again.body.message).toBe('An import of this site is already running.');

    const state = await finished(org.site.id);
    expect(state).toMatchObject({ status: 'completed', progress: 100, error: null });

    const pages = await db.query<{ url: string }>(
      'SELECT url FROM crawled_pages WHERE site_id = $1 ORDER BY url',
      [org.site.id],
    );
    const replies = await db.query<{ question: string; answer: string; source_url: string }>(
      'SELECT question, answer, source_url FROM bot_replies WHERE site_id = $1 ORDER BY question',
      [org.site.id],
    );
    const articles = await db.query<{
      source_url: string;
      status: string;
      body: string;
      slug: string;
    }>('SELECT source_url, status, body, slug FROM kb_articles WHERE site_id = $1 ORDER BY id', [
      org.site.id,
    ]);
    expect(state.summary.pages).toBe(pages.rowCount);
    expect(state.summary.bot_replies).toBe(replies.rowCount);
    expect(state.summary.kb_articles).toBe(articles.rowCount);
    // Every guide became a draft article in Markdown, its links pointing at the owner's site.
    const guide = articles.rows.find((row) => row.source_url === `${website.url}/docs/2`);
    expect(guide).toMatchObject({ status: 'draft', slug: expect.stringMatching(/^guide-2/) });
    expect(guide?.body).toContain('This guide explains');
    expect(guide?.body).toContain(`](${website.url}/docs/3)`);
    expect(guide?.body).not.toContain('Harbour Road');
    expect(
      articles.rows.filter((row) => row.source_url.startsWith(`${website.url}/docs/`)).length,
    ).toBeGreaterThanOrEqual(20);
    expect(new Set(articles.rows.map((row) => row.slug)).size).toBe(articles.rowCount);
    const urls = pages.rows.map((row) => row.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        `${website.url}/`,
        `${website.url}/docs/1`,
        `${website.url}/docs/20`,
        `${website.url}/only-in-sitemap`,
        `${website.url}/loop/a`,
        `${website.url}/loop/b`,
      ]),
    );
    // The canonical address stands for both /docs/1 and /docs/1?ref=home.
    expect(urls.filter((url) => url.includes('/docs/1?'))).toEqual([]);
    for (const left of ['/private/notes', '/huge', '/slow', '/logo.png', '/away']) {
      expect(urls).not.toContain(`${website.url}${left}`);
    }
    // The four forms of questions, each once.
    expect(replies.rows.map((row) => row.question)).toEqual([
      'Can I cancel my plan at any time?',
      'Do you offer refunds?',
      'Do you ship abroad?',
      'How do I reset my password?',
      'What is a seat?',
      'What is a workspace?',
      'Where is my invoice?',
    ]);
    expect(
      replies.rows.find((row) => row.question === 'How do I reset my password?'),
    ).toMatchObject({
      answer: 'Click Forgot password on the login page; the link is valid for one hour.',
      source_url: `${website.url}/faq/jsonld`,
    });

    // Never fetched: the folder robots.txt forbids, the host a redirect led off to, and the
    // loopback address outside CRAWL_ALLOWED_HOSTS.
    expect(website.requests).not.toContain('/private/notes');
    expect(website.requests).toContain('/robots.txt');
    expect(website.requests).toContain('/away');
    expect(offSite.requests).toEqual([]);
    expect(refused.requests).toEqual([]);
    // Each address read once (the loop too).
    const reads = website.requests.filter((path) => path === '/loop/a' || path === '/docs/3');
    expect(reads).toEqual(expect.arrayContaining(['/loop/a', '/docs/3']));
    expect(reads).toHaveLength(2);
  });

  it('shows the state in the agent site and the public API, only to its organization', async () => {
    const site = await as(org.token).get(`/api/agent/sites/${org.site.id}`).expect(200);
    expect(site.body.data.content_import).toMatchObject({ status: 'completed', progress: 100 });
    const key = await createApiKey(app.url, org.token, ['sites:read']);
    const v1 = await request(app.url)
      .get(`/api/v1/sites/${org.site.id}`)
      .set('Authorization', `Bearer ${key.key}`)
      .expect(200);
    expect(v1.body.data.content_import).toEqual({
      status: 'completed',
      progress: 100,
      progress_label: site.body.data.content_import.progress_label,
      summary: site.body.data.content_import.summary,
    });
    await as(other.token).get(importOf(org.site.id)).expect(404);
    await as(other.token).post(importOf(org.site.id), {}).expect(404);
    await as(agent.token).get(importOf(org.site.id)).expect(200);
    await as(agent.token).post(importOf(org.site.id), {}).expect(403);
    const bad = await as(org.token)
      .post(importOf(org.site.id), { start_url: 'ftp://x', max_pages: 5000, include: ['docs'] })
      .expect(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['include', 'max_pages', 'start_url']);
  });

  it('a re-import updates what changed and leaves an agent’s edits alone', async () => {
    const [article] = (
      await db.query<{ id: string }>(
        'SELECT id FROM kb_articles WHERE site_id = $1 AND source_url = $2',
        [org.site.id, `${website.url}/faq/details`],
      )
    ).rows;
    await as(org.token)
      .patch(`/api/agent/kb/articles/${article.id}`, { body: 'Our own words about questions.' })
      .expect(200);
    const [edited] = (
      await db.query<{ id: string }>(
        `SELECT id FROM bot_replies WHERE site_id = $1 AND question = 'Do you ship abroad?'`,
        [org.site.id],
      )
    ).rows;
    await as(org.token)
      .patch(`/api/agent/bot-replies/${edited.id}`, { answer: 'Yes, everywhere but Antarctica.' })
      .expect(200);
    website.content.refunds = 'Within 30 days now, in full.';
    await as(org.token)
      .post(importOf(org.site.id), { start_url: `${website.url}/` })
      .expect(202);
    const state = await finished(org.site.id);
    expect(state.status).toBe('completed');
    // Only the changed answer was written again; the edited article kept its text.
    expect(state.summary.bot_replies).toBe(1);
    expect(state.summary.kb_articles).toBe(0);
    const kept = await as(org.token).get(`/api/agent/kb/articles/${article.id}`).expect(200);
    expect(kept.body.data.body).toBe('Our own words about questions.');
    expect(kept.body.data.import_suggestion).toContain('Within 30 days now, in full.');
    const answers = await db.query<{ question: string; answer: string }>(
      `SELECT question, answer FROM bot_replies WHERE site_id = $1
         AND question IN ('Do you offer refunds?', 'Do you ship abroad?') ORDER BY question`,
      [org.site.id],
    );
    expect(answers.rows).toEqual([
      { question: 'Do you offer refunds?', answer: 'Within 30 days now, in full.' },
      { question: 'Do you ship abroad?', answer: 'Yes, everywhere but Antarctica.' },
    ]);
  });

  it('cancel stops the crawl', async () => {
    await as(org.token).delete(importOf(org.site.id)).expect(409);
    const before = website.requests.length;
    await as(org.token)
      .post(importOf(org.site.id), { start_url: `${website.url}/` })
      .expect(202);
    await eventually(async () => website.requests.length > before + 2);
    const cancelled = await as(org.token).delete(importOf(org.site.id)).expect(200);
    expect(cancelled.body).toMatchObject({
      message: 'Content import cancelled.',
      data: { status: 'cancelled' },
    });
    // A page being read when the cancel came may still finish; then nothing more is asked for.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const settled = website.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(website.requests.length).toBe(settled);
    expect(settled - before).toBeLessThan(25);
    expect((await as(org.token).get(importOf(org.site.id)).expect(200)).body.data.status).toBe(
      'cancelled',
    );
  });

  it('bot replies: admins write them, every member reads them, one per question and site', async () => {
    const created = await as(org.token)
      .post('/api/agent/bot-replies', {
        site_id: org.site.id,
        question: 'Is there a mobile app?',
        answer: 'Yes, for iOS and Android.',
      })
      .expect(201);
    expect(created.body.data).toMatchObject({
      site_id: org.site.id,
      enabled: true,
      source_url: null,
      edited_by_agent: true,
    });
    const id = created.body.data.id as number;
    const dup = await as(org.token)
      .post('/api/agent/bot-replies', {
        site_id: org.site.id,
        question: 'is there a MOBILE app?',
        answer: 'Twice.',
      })
      .expect(422);
    expect(dup.body.errors).toHaveProperty('question');
    await as(org.token)
      .post('/api/agent/bot-replies', { site_id: other.site.id, question: 'Q?', answer: 'A.' })
      .expect(422);
    await as(agent.token)
      .post('/api/agent/bot-replies', { site_id: org.site.id, question: 'Q?', answer: 'A.' })
      .expect(403);
    const listed = await as(agent.token)
      .get(`/api/agent/bot-replies?site_id=${org.site.id}&q=mobile`)
      .expect(200);
    expect(listed.body.data.map((row: { id: number }) => row.id)).toEqual([id]);
    await as(org.token).patch(`/api/agent/bot-replies/${id}`, { enabled: false }).expect(200);
    await as(other.token).patch(`/api/agent/bot-replies/${id}`, { enabled: true }).expect(404);
    expect((await as(other.token).get('/api/agent/bot-replies').expect(200)).body.data).toEqual([]);
    await as(org.token).delete(`/api/agent/bot-replies/${id}`).expect(200);
    await as(org.token).delete(`/api/agent/bot-replies/${id}`).expect(404);
  });
});
