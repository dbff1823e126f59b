import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.decorator';
import {
  type Ability,
  type AgentPrincipal,
  type ApiKeyPrincipal,
  AUTH_METADATA,
  type AuthDeclaration,
  type AuthenticatedRequest,
  type VisitorPrincipal,
  type WidgetPrincipal,
} from './auth.types';

const declare = (declaration: AuthDeclaration) => SetMetadata(AUTH_METADATA, declaration);

/** No credentials (health, documents, register, login). */
export const Public = () => declare({ kind: 'public' });

/**
 * A logged-in agent (bearer token or session cookie). `role: 'admin'` admits owners and admins;
 * agents get 403. A cookie-authenticated POST, PUT, PATCH or DELETE also needs a JSON body type
 * and an `Origin` of PUBLIC_URL or DASHBOARD_ORIGINS (403 otherwise). `multipart: true` (file
 * uploads) also admits a `multipart/form-data` body from the dashboard's origin. When the
 * organization requires two-factor authentication, a member without it gets 403 everywhere but on
 * the routes declared `twoFactorSetup: true` (who am I, setting it up, logging out).
 */
export const Agent = ({
  role = 'agent',
  multipart = false,
  twoFactorSetup = false,
}: { role?: 'agent' | 'admin'; multipart?: boolean; twoFactorSetup?: boolean } = {}) =>
  applyDecorators(
    declare({
      kind: 'agent',
      role,
      ...(multipart ? { multipart } : {}),
      ...(twoFactorSetup ? { twoFactorSetup } : {}),
    }),
    ApiBearerAuth('agent_token'),
    ApiCookieAuth('agent_cookie'),
    ApiErrors(401, 403),
  );

/**
 * A platform administrator (DESIGN section 13): a logged-in agent (bearer token or session cookie,
 * with the cookie's cross-site rules) whose login was granted by `npm run cli -- admin:grant`, or
 * signed up itself and confirmed by the mailed link an address PLATFORM_ADMIN_EMAILS lists.
 * Anyone else, logged in or not, gets the 404 of an unknown address: the console's existence is
 * not advertised.
 */
export const PlatformAdmin = () =>
  applyDecorators(
    declare({ kind: 'platform_admin' }),
    ApiBearerAuth('agent_token'),
    ApiCookieAuth('agent_cookie'),
    ApiErrors(404),
  );

/** An organization API key (`Authorization: Bearer` or `X-Service-Key`) holding `ability`. */
export const ApiKey = (ability?: Ability) =>
  applyDecorators(
    declare(ability ? { kind: 'api_key', ability } : { kind: 'api_key' }),
    ApiBearerAuth('api_key'),
    ApiSecurity('service_key'),
    ApiErrors(...(ability ? [401, 403, 429] : [401, 429])),
  );

/**
 * A widget call: the site's `widget_key` in the JSON body (or the query string of a GET), or the
 * widget session token as `Authorization: Bearer`. Unknown keys and inactive sites are 404; an
 * organization whose subscription ended more than SUBSCRIPTION_GRACE_DAYS ago gets 402; a browser
 * origin outside the site's `allowed_domains` gets 403; past WIDGET_LIMIT_PER_MINUTE calls from one
 * address to one site, 429. With `visitor`, the route acts for a
 * visitor: `visitor_uid` next to the key (404 when it is not a visitor of that site) or the token.
 */
export const Widget = ({ visitor = false }: { visitor?: boolean } = {}) =>
  applyDecorators(
    declare({ kind: 'widget', visitor }),
    ApiSecurity('widget_key'),
    ...(visitor ? [ApiBearerAuth('widget_session')] : []),
    ApiErrors(...(visitor ? [401, 402, 403, 404, 429] : [402, 403, 404, 429])),
  );

/**
 * A widget route acting for a visitor by the session token alone (`Authorization: Bearer`): the
 * routes added beside the spec's (DESIGN section 7), so a leaked `visitor_uid` is no login there.
 * No token is a 401; otherwise as `@Widget({ visitor: true })`.
 */
export const WidgetSession = () =>
  applyDecorators(
    declare({ kind: 'widget', visitor: true, sessionOnly: true }),
    ApiBearerAuth('widget_session'),
    ApiErrors(401, 402, 403, 404, 429),
  );

export const CurrentWidget = createParamDecorator(
  (_: unknown, context: ExecutionContext): WidgetPrincipal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().widget as WidgetPrincipal,
);

export const CurrentVisitor = createParamDecorator(
  (_: unknown, context: ExecutionContext): VisitorPrincipal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().widget as VisitorPrincipal,
);

export const CurrentAgent = createParamDecorator(
  (_: unknown, context: ExecutionContext): AgentPrincipal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().agent as AgentPrincipal,
);

export const CurrentApiKey = createParamDecorator(
  (_: unknown, context: ExecutionContext): ApiKeyPrincipal =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey as ApiKeyPrincipal,
);
