import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { helpBase, type Page } from './help-center.pages';
import { HelpCenterService } from './help-center.service';

/**
 * The public help center of a site (DESIGN section 10) at `/help/<widget_key>/...`: HTML pages,
 * outside the API and its OpenAPI document, mounted as one middleware before Nest's router (as the
 * browser apps are): a page is a site lookup, one statement and a template, and the router's
 * guards, pipes and envelope have nothing to add to it. Anything not published, or a help center
 * that is off, is the 404 page with status 404.
 */
export function mountHelpCenter(app: NestExpressApplication): void {
  app.use(helpCenterMiddleware(app.get(HelpCenterService)));
}

const HELP = /^\/help\/([^/]+)(?:\/(.*))?$/;

export function helpCenterMiddleware(help: HelpCenterService) {
  return (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const match = HELP.exec(request.path);
    if (!match) return next();
    route(help, match[1], match[2], request, response).catch(next);
  };
}

function send(response: Response, page: Page, status = 200): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': page.policy,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  response.end(page.html);
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

async function route(
  help: HelpCenterService,
  key: string,
  rest: string | undefined,
  request: Request,
  response: Response,
): Promise<void> {
  const nonce = help.nonce();
  const parts = (rest ?? '').split('/');
  const [locale, kind, slug, ...extra] = parts;
  const notFound = async () => {
    const site = await help.site(key);
    send(response, help.notFound(site?.help, locale || undefined, nonce), 404);
  };

  if (!locale && parts.length === 1) {
    const site = await help.site(key);
    if (!site) return send(response, help.notFound(undefined, undefined, nonce), 404);
    response.writeHead(302, {
      Location: `${helpBase(site.help)}/${site.help.defaultLocale}/`,
      'Cache-Control': 'no-cache',
    });
    return void response.end();
  }
  if (locale === 'sitemap.xml' && parts.length === 1) {
    const xml = await help.sitemap(key);
    if (xml === undefined) return send(response, help.notFound(undefined, undefined, nonce), 404);
    response.writeHead(200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    return void response.end(xml);
  }

  let page: Page | undefined;
  if (parts.length === 1 || (parts.length === 2 && kind === '')) {
    page = await help.home(key, locale, nonce);
  } else if (parts.length === 2 && kind === 'search') {
    const q = typeof request.query.q === 'string' ? request.query.q : '';
    page = await help.search(key, locale, q, nonce);
  } else if (parts.length === 3 && extra.length === 0 && slug) {
    const decoded = decode(slug);
    if (decoded !== undefined && kind === 'articles') {
      page = await help.article(key, locale, decoded, nonce);
    } else if (decoded !== undefined && kind === 'categories') {
      page = await help.category(key, locale, decoded, nonce);
    }
  }
  if (page) return send(response, page);
  return notFound();
}
