import { Controller, Get, Header, NotFoundException, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { RawResponse } from '../../common/http/response-message.decorator';
import { SitesService } from '../sites/sites.service';
import { frameAncestors } from './frame-ancestors';
import { builtFile, NOT_BUILT, webPaths } from './web-assets';
import { demoPage, demoPolicy } from './demo-page';
import { AppConfig } from '../../config/app-config';

/**
 * The widget's browser entry points: the loader a host page includes, the chat frame (its
 * `frame-ancestors` follows the site's allowed domains) and a demo host page. Not API
 * operations: HTML and JavaScript, outside the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@RawResponse()
@Controller()
export class WebController {
  constructor(
    private readonly sites: SitesService,
    private readonly config: AppConfig,
  ) {}

  @Get('widget.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  // Small and unversioned (its address is in every host page): cached for minutes, not a year.
  @Header('Cache-Control', 'public, max-age=300')
  @Header('Access-Control-Allow-Origin', '*')
  loader(): string {
    const script = builtFile(webPaths.loader);
    if (script === undefined) throw new NotFoundException();
    return script;
  }

  @Get('widget/frame.html')
  async frame(@Query('widget_key') widgetKey: unknown, @Res() response: Response): Promise<void> {
    const html = builtFile(`${webPaths.widget}/frame.html`);
    const site =
      typeof widgetKey === 'string' ? await this.sites.findActiveByWidgetKey(widgetKey) : undefined;
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    if (!site || html === undefined) {
      response.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors *");
      response.status(site ? 503 : 404).type('html');
      response.send(site ? NOT_BUILT : '<!doctype html><title>Not found</title>');
      return;
    }
    response.setHeader(
      'Content-Security-Policy',
      [
        "default-src 'self'",
        "connect-src 'self' ws: wss:",
        "img-src 'self' data: blob:",
        "style-src 'self' 'unsafe-inline'",
        "object-src 'none'",
        "base-uri 'none'",
        `frame-ancestors ${frameAncestors(site.allowedDomains)}`,
      ].join('; '),
    );
    response.type('html').send(html);
  }

  /**
   * The loader's address comes from PUBLIC_URL, never from the request's `Host` header (which
   * whoever sends the request chooses); the page may run only that loader and frame its chat.
   */
  @Get('demo')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  demo(@Query('widget_key') widgetKey: unknown, @Res() response: Response): void {
    const origin = new URL(this.config.publicUrl).origin;
    response.setHeader('Content-Security-Policy', demoPolicy(origin));
    response.send(demoPage(origin, typeof widgetKey === 'string' ? widgetKey : undefined));
  }
}
