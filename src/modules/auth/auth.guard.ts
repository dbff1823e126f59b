import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  AUTH_METADATA,
  type AuthDeclaration,
  type AuthenticatedRequest,
  type WidgetPrincipal,
} from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { PlatformAdminsService } from '../platform/platform-admins.service';
import { originAllowed, sameOrigin } from '../sites/allowed-origins';
import { type SiteIdentity, SitesService } from '../sites/sites.service';
import { VisitorsService } from '../visitors/visitors.service';
import { ApiThrottlerGuard } from './api-throttler.guard';
import { AuthService } from './auth.service';
import { readSessionCookie } from './session-cookie';
import { WidgetSessionService } from './widget-session.service';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearer(request: AuthenticatedRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The global guard. Every route declares how it is authenticated (`@Public`, `@Agent`, `@ApiKey`,
 * `@Widget`);
 * a route without a declaration is refused (and the start-up check refuses to boot with one).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly apiKeys: ApiKeysService,
    private readonly throttler: ApiThrottlerGuard,
    private readonly sites: SitesService,
    private readonly organizations: OrganizationsService,
    private readonly visitors: VisitorsService,
    private readonly widgetSessions: WidgetSessionService,
    private readonly platformAdmins: PlatformAdminsService,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const declaration = this.reflector.getAllAndOverride<AuthDeclaration | undefined>(
      AUTH_METADATA,
      [context.getHandler(), context.getClass()],
    );
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!declaration) throw AppError.unauthenticated();
    switch (declaration.kind) {
      case 'public':
        return true;
      case 'agent': {
        const fromBearer = bearer(request);
        const token = fromBearer ?? readSessionCookie(request);
        const agent = token ? await this.auth.authenticate(token) : undefined;
        if (!agent) throw AppError.unauthenticated();
        if (!fromBearer) this.refuseCrossSite(request, declaration.multipart === true);
        if (agent.twoFactorMissing && declaration.twoFactorSetup !== true) {
          throw AppError.forbidden(
            'Your organization requires two-factor authentication: set it up in Profile and security first.',
            'two_factor_required',
          );
        }
        if (declaration.role === 'admin' && agent.role === 'agent') {
          throw AppError.forbidden('This action requires the owner or admin role.', 'admin_only');
        }
        request.agent = agent;
        return true;
      }
      case 'api_key': {
        const header = request.headers['x-service-key'];
        const presented =
          bearer(request) ?? (typeof header === 'string' ? header.trim() : undefined);
        const key = presented ? await this.apiKeys.authenticate(presented) : undefined;
        if (!key) throw AppError.unauthenticated();
        request.apiKey = key;
        // Counted before the ability check, so refused calls use the budget too.
        await this.throttler.canActivate(context);
        if (declaration.ability && !key.abilities.includes(declaration.ability)) {
          throw new AppError(
            'missing_ability',
            `API key missing required ability: ${declaration.ability}`,
            { reason: 'api_key_missing_ability' },
          );
        }
        return true;
      }
      case 'widget': {
        request.widget = await this.widgetPrincipal(
          request,
          declaration.visitor,
          declaration.sessionOnly === true,
        );
        return true;
      }
      case 'platform_admin': {
        const fromBearer = bearer(request);
        const token = fromBearer ?? readSessionCookie(request);
        const agent = token ? await this.auth.authenticate(token) : undefined;
        if (!agent || !(await this.platformAdmins.isAdmin(agent.userId))) throw AppError.notFound();
        if (!fromBearer) this.refuseCrossSite(request, false);
        request.agent = agent;
        return true;
      }
    }
  }

  /**
   * A browser sends the session cookie with whatever another site makes it request: an unsafe
   * cookie request must come from the dashboard's own origin, and a body must be JSON (which a
   * foreign page cannot send without a CORS preflight this server never grants). Bearer requests carry no ambient
   * credential and are not checked.
   */
  private refuseCrossSite(request: AuthenticatedRequest, multipart: boolean): void {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !this.config.agentOrigins.has(origin)) {
      throw AppError.forbidden(
        'Requests with the session cookie must come from the dashboard.',
        'session_origin_refused',
      );
    }
    // A request without a body (logout, say) has no type to check; a cross-site one still names
    // its origin, refused above. Anything with a body, even an empty one, must say it is JSON.
    const type = request.headers['content-type'];
    const bodyless =
      type === undefined &&
      request.headers['transfer-encoding'] === undefined &&
      (request.headers['content-length'] ?? '0') === '0';
    // An upload route also takes a form from the dashboard's origin (checked above).
    const accepted = multipart
      ? /^(application\/json|multipart\/form-data)\s*(;|$)/i
      : /^application\/json\s*(;|$)/i;
    if (!bodyless && (typeof type !== 'string' || !accepted.test(type))) {
      throw AppError.forbidden(
        'Requests with the session cookie must send JSON.',
        'session_requires_json',
      );
    }
  }

  /**
   * The site (and, when the route acts for a visitor, the visitor) of a widget call: from a
   * session token, else from `widget_key` and `visitor_uid`. Then the origin and the subscription.
   */
  private async widgetPrincipal(
    request: AuthenticatedRequest,
    needsVisitor: boolean,
    sessionOnly: boolean,
  ): Promise<WidgetPrincipal> {
    // Only visitor routes take a session token; `init` and `config` go by the widget key alone, so
    // a widget holding a lapsed token can still open a new session.
    const token = needsVisitor ? bearer(request) : undefined;
    if (sessionOnly && !token) throw AppError.unauthenticated();
    let visitorId: string | undefined;
    let site: SiteIdentity | undefined;
    if (token) {
      const session = this.widgetSessions.verify(token);
      if (!session) throw AppError.unauthenticated();
      // A session the visitor ended (SupportChat('shutdown')) is over for every token of it.
      const [found, live] = await Promise.all([
        this.sites.activeIdentity(session.organizationId, session.siteId),
        this.visitors.sessionLive(session.organizationId, session.visitorId),
      ]);
      if (!live) throw AppError.unauthenticated();
      site = found;
      visitorId = session.visitorId;
    } else {
      const key = widgetField(request, 'widget_key');
      if (!key)
        throw AppError.invalid('widget_key', 'The widget_key field is required.', 'required');
      site = await this.sites.activeIdentityByWidgetKey(key);
    }
    if (!site) throw AppError.notFound();
    const siteId = site.id;
    await rateLimited(
      this.limits,
      `widget:${siteId}:${request.ip ?? 'unknown'}`,
      this.config.env.WIDGET_LIMIT_PER_MINUTE,
      60_000,
    );
    if (needsVisitor && !visitorId) {
      const uid = widgetField(request, 'visitor_uid');
      if (!uid)
        throw AppError.invalid('visitor_uid', 'The visitor_uid field is required.', 'required');
      visitorId = await this.visitors.idByUid(site.organizationId, siteId, uid);
      if (!visitorId) throw AppError.notFound();
    }
    const origin = request.headers.origin;
    if (
      typeof origin === 'string' &&
      !sameOrigin(origin, request.headers.host) &&
      !originAllowed(site.allowedDomains, origin)
    ) {
      throw AppError.forbidden(
        "This origin is not in the site's allowed domains.",
        'origin_not_allowed',
      );
    }
    this.organizations.requireActiveSubscription(await this.organizations.get(site.organizationId));
    return {
      siteId,
      organizationId: site.organizationId,
      allowedDomains: site.allowedDomains,
      ...(visitorId ? { visitorId } : {}),
    };
  }
}

/** A widget credential field from the JSON body, or from the query string (GETs). */
function widgetField(request: AuthenticatedRequest, name: string): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? body[name] : undefined;
  const value = fromBody ?? request.query[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
