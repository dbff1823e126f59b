import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { VERSION } from '../../config/version';

/**
 * The OpenAPI document of every route. It carries no server address, so the committed copy is the
 * same on every machine; the served copy adds `PUBLIC_URL` as its server.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Support Chat Service API')
    .setDescription(
      'Public REST API v1 (API keys), widget API, agent API and operations endpoints. ' +
        'Every JSON response carries the envelope fields `status`, `message`, `code` and `datetime`; ' +
        'errors add `error_code`.',
    )
    .setVersion(VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Organization API key (scs_live_...)' },
      'api_key',
    )
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Service-Key' }, 'service_key')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'Agent session token' },
      'agent_token',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'query',
        name: 'widget_key',
        description:
          "The site's widget key: in the JSON body of widget POSTs, in the query string of GETs",
      },
      'widget_key',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'Widget session token (wst_...) from POST /api/widget/init',
      },
      'widget_session',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Service-Visitor-Login-Secret',
        description: "The organization's trusted visitor login secret (vls_...)",
      },
      'trusted_login_secret',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: "The organization's trusted visitor login secret, as a bearer token",
      },
      'trusted_login_bearer',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'METRICS_TOKEN, for GET /metrics (unset: the route answers 404)',
      },
      'metrics_token',
    )
    .addCookieAuth(
      'scs_session',
      { type: 'apiKey', in: 'cookie', name: 'scs_session' },
      'agent_cookie',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  return sortKeys(withResponseHeaders(withTextRule(document))) as OpenAPIObject;
}

const MALFORMED_400 = {
  description: 'Malformed JSON body (`malformed_json`)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDto' } } },
};

const TEXT_RULE_422 = {
  description:
    'Validation failed; `errors` names each field. Any route: a query parameter, header or body ' +
    'field holding a NUL character or a lone surrogate',
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/ValidationErrorDto' } },
  },
};

/**
 * Two answers every route can give, so every operation documents them, also those without any
 * parameter of their own: the text rule (NUL characters and lone surrogates are a 422) and the
 * JSON body parser (a body that is not JSON is a 400), both run before any route.
 */
function withTextRule(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation) continue;
      operation.responses['400'] ??= MALFORMED_400;
      operation.responses['422'] ??= TEXT_RULE_422;
    }
  }
  return document;
}

interface HeaderObject {
  description: string;
  schema: { type: string; enum?: string[] };
}

const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed per API key and minute (RATE_LIMIT_PER_MINUTE)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window resets',
    schema: { type: 'integer' },
  },
};
const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before trying again',
  schema: { type: 'integer' },
};
const REPLAYED: HeaderObject = {
  description: 'Present (`true`) when this is the kept first response to the same Idempotency-Key',
  schema: { type: 'string', enum: ['true'] },
};
/** Answered before the API key is known (body parser, authentication): no limit headers. */
const BEFORE_THE_KEY = ['400', '401'];

/**
 * The headers the API sends, declared where it sends them: X-RateLimit-* on every public API
 * answer once the key is known (ApiThrottlerGuard), Retry-After on every 429 (each limit sets it),
 * Idempotent-Replayed on whatever a replay of a kept response can be (IdempotencyInterceptor:
 * every status below 500).
 */
function withResponseHeaders(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (!operation) continue;
      const limited = (operation.security ?? []).some(
        (scheme) => 'api_key' in scheme || 'service_key' in scheme,
      );
      const idempotent = (operation.parameters ?? []).some(
        (parameter) =>
          'in' in parameter && parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      );
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || '$ref' in response) continue;
        const headers: Record<string, HeaderObject> = {};
        const afterTheKey = !BEFORE_THE_KEY.includes(status) && Number(status) < 500;
        if (limited && !BEFORE_THE_KEY.includes(status)) Object.assign(headers, RATE_LIMIT_HEADERS);
        if (status === '429') headers['Retry-After'] = RETRY_AFTER;
        if (idempotent && afterTheKey) headers['Idempotent-Replayed'] = REPLAYED;
        if (Object.keys(headers).length > 0) {
          response.headers = { ...(response.headers ?? {}), ...headers };
        }
      }
    }
  }
  return document;
}

/** Stable key order, so regenerating the document gives the same bytes. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function withServer(document: OpenAPIObject, url: string): OpenAPIObject {
  return { ...document, servers: [{ url }] };
}
