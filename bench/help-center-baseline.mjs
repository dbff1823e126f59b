// The help center's baseline (npm run bench:kb): a raw node:http + pg server answering the
// article page from the same rows with the same statements and the same template function as the
// service (imported from its build), so the bodies are equal but for the per-response nonce.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';

const require = createRequire(import.meta.url);
const dist = (file) =>
  require(path.join(import.meta.dirname, '..', 'dist', 'src', 'modules', file));
const pages = dist('knowledge-base/help-center.pages.js');
const { HELP_ARTICLE_SQL } = dist('knowledge-base/knowledge-base.repository.js');

const { DATABASE_URL, PORT, PUBLIC_URL } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20 });
const SITE_SQL = `SELECT id, organization_id, name, domain, timezone, is_active, allowed_domains, widget_key, widget_settings, retention_days, help_center, created_at FROM sites WHERE widget_key = $1 AND is_active`;
const ARTICLE = /^\/help\/(wk_[A-Za-z0-9]{1,64})\/([a-z]{2})\/articles\/([^/?]+)$/;

async function articlePage(key, locale, slug) {
  const { rows: sites } = await pool.query(SITE_SQL, [key]);
  const site = sites[0];
  const help = {
    enabled: false,
    title: null,
    locales: ['en'],
    default_locale: 'en',
    ...site?.help_center,
  };
  if (!site || !help.enabled || !help.locales.includes(locale)) return undefined;
  const { rows } = await pool.query({
    text: HELP_ARTICLE_SQL,
    values: [site.organization_id, site.id, locale, decodeURIComponent(slug)],
    name: 'kb_help_article',
  });
  if (!rows[0]) return undefined;
  return pages.articlePage(
    {
      site: {
        publicUrl: PUBLIC_URL,
        widgetKey: site.widget_key,
        siteName: site.name,
        title: help.title ?? site.name,
        color: site.widget_settings?.appearance?.color ?? '#2563eb',
        locales: help.locales,
        defaultLocale: help.default_locale,
      },
      locale,
      nonce: randomBytes(16).toString('base64'),
      loaderStyleHash: pages.loaderStyleHash(),
    },
    rows[0],
  );
}

http
  .createServer((request, response) => {
    if (request.url === '/ready') return response.end('ok');
    const match = ARTICLE.exec(request.url ?? '');
    if (!match) {
      response.statusCode = 404;
      return response.end();
    }
    articlePage(match[1], match[2], match[3]).then(
      (page) => {
        if (!page) {
          response.statusCode = 404;
          return response.end();
        }
        response.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': page.policy,
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'strict-origin-when-cross-origin',
        });
        response.end(page.html);
      },
      (error) => {
        response.statusCode = 500;
        response.end(String(error));
      },
    );
  })
  .listen(Number(PORT), '127.0.0.1');
