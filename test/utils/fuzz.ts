/**
 * A request generator driven by the served OpenAPI document: for each operation, a valid-looking
 * base request (credentials of the kind the operation declares, required fields filled in) and
 * its mutations. Used by `test/e2e/fuzz.e2e-spec.ts`; knows no route by name.
 */

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  example?: unknown;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface OperationObject {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema } | undefined> };
  responses?: Record<string, { content?: Record<string, unknown> } | undefined>;
}

export interface FuzzDocument {
  paths: Record<string, Record<string, OperationObject | undefined> | undefined>;
  components: { schemas: Record<string, Schema | undefined> };
}

export interface Operation {
  method: string;
  template: string;
  object: OperationObject;
}

export interface Credentials {
  agentToken: string;
  apiKey: string;
  widgetKey: string;
  visitorUid: string;
  sessionToken: string;
  trustedSecret: string;
  /** Ids used when a path parameter's list gives none, by parameter name. */
  fallbackIds: Record<string, number>;
}

export interface Probe {
  method: string;
  /** Path and query, exactly as sent (already encoded). */
  url: string;
  headers: Record<string, string>;
  /** The raw JSON text sent, if any. */
  body?: string;
  /** Content types other than JSON the operation documents for a success (a CSV, a file). */
  rawSuccessTypes?: string[];
}

const LONG = 'x'.repeat(70_000);
const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const HUGE_INT = 2 ** 53 + 2;
/** One past PostgreSQL's bigint: 19 digits, so a digit-count check alone lets it through. */
const BIGINT_PAST = '9223372036854775808';
const DEEP_JSON = `${'['.repeat(4000)}1${']'.repeat(4000)}`;
const PROTO = '{"__proto__":{"is_admin":true,"role":"owner","status":"closed","toString":1}}';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(document: FuzzDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const object = item?.[method];
      if (object) operations.push({ method: method.toUpperCase(), template, object });
    }
  }
  return operations;
}

/**
 * Operations whose success would spoil the rest of the run (ending the session, changing its
 * password, deleting records such as the caller or the API key, rotating a secret): run last,
 * each with a fresh owner. A rule by method and path words, not a list of routes.
 */
export function isDisruptive(operation: Operation): boolean {
  return (
    operation.method === 'DELETE' ||
    /(logout|password|secret|revoke|rotate|leave|session\/end)/i.test(operation.template)
  );
}

function resolve(document: FuzzDocument, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 8) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return resolve(document, document.components.schemas[name], depth + 1);
  }
  const parts = schema.allOf ?? (schema.oneOf ? [schema.oneOf[0]] : undefined);
  if (parts) {
    const merged: Schema = { ...schema, properties: { ...schema.properties } };
    for (const part of parts) {
      const resolved = resolve(document, part, depth + 1);
      Object.assign(merged.properties!, resolved.properties);
      merged.required = [...(merged.required ?? []), ...(resolved.required ?? [])];
      merged.type ??= resolved.type;
    }
    return merged;
  }
  return schema;
}

/** A plausible valid value for a schema. */
function sample(document: FuzzDocument, input: Schema | undefined, depth = 0): unknown {
  const schema = resolve(document, input);
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'array':
      return depth > 3 ? [] : [sample(document, schema.items, depth + 1)];
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'uri') return 'https://example.com/';
      return 'fuzz';
    case undefined:
    default: {
      if (!schema.properties || depth > 3) return schema.type === 'object' ? {} : 'fuzz';
      const object: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        object[name] = sample(document, schema.properties[name], depth + 1);
      }
      return object;
    }
  }
}

/**
 * Values of every JSON type but the schema's own, plus the edge cases of its own type; the most
 * telling first (`null`, NUL, a lone surrogate, the wrong container), as runs are bounded.
 */
function mutations(document: FuzzDocument, input: Schema | undefined): unknown[] {
  const schema = resolve(document, input);
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  const wrong: [string, unknown][] = [
    ['object', { fuzz: 1 }],
    ['array', ['fuzz']],
    ['string', 'fuzz'],
    ['integer', 123456],
    ['boolean', true],
  ];
  const others = wrong
    .filter(([kind]) => kind !== type && !(kind === 'integer' && type === 'number'))
    .map(([, value]) => value);
  switch (type) {
    case 'string':
      return [null, NUL, LONE, ...others, LONG, '', '__proto__'];
    case 'integer':
    case 'number':
      return [null, 2 ** 31, 1e308, -1, ...others, 0, 1.5, HUGE_INT, -(2 ** 63)];
    case 'array':
      return [
        null,
        [NUL],
        [LONE],
        ...others,
        [null],
        [{}],
        Array.from({ length: 2000 }, () => 'x'),
      ];
    case 'object':
      return [null, { fuzz: NUL }, { [NUL]: 1 }, [{}], ...others];
    case 'boolean':
      return [null, 'true', 1, ...others];
    case undefined:
    default:
      return [null, NUL, LONE, ...others, LONG];
  }
}

interface Auth {
  headers: Record<string, string>;
  body: Record<string, unknown>;
  query: Record<string, string>;
}

/** Credentials for the first security alternative the run can satisfy (a session preferred). */
function authFor(operation: Operation, credentials: Credentials, isGet: boolean): Auth {
  const auth: Auth = { headers: {}, body: {}, query: {} };
  const alternatives = operation.object.security ?? [];
  const usable = (alternative: Record<string, string[]>) =>
    Object.keys(alternative).every((scheme) => scheme !== 'agent_cookie');
  const chosen =
    alternatives.find((a) => 'widget_session' in a && usable(a)) ?? alternatives.find(usable);
  for (const scheme of Object.keys(chosen ?? {})) {
    switch (scheme) {
      case 'agent_token':
        auth.headers.Authorization = `Bearer ${credentials.agentToken}`;
        break;
      case 'api_key':
        auth.headers.Authorization = `Bearer ${credentials.apiKey}`;
        break;
      case 'service_key':
        auth.headers['X-Service-Key'] = credentials.apiKey;
        break;
      case 'widget_session':
        auth.headers.Authorization = `Bearer ${credentials.sessionToken}`;
        break;
      case 'trusted_login_secret':
        auth.headers['X-Service-Visitor-Login-Secret'] = credentials.trustedSecret;
        break;
      case 'trusted_login_bearer':
        auth.headers.Authorization = `Bearer ${credentials.trustedSecret}`;
        break;
      case 'widget_key':
        if (isGet) auth.query.widget_key = credentials.widgetKey;
        else auth.body.widget_key = credentials.widgetKey;
        break;
    }
  }
  return auth;
}

const encode = (query: Record<string, string>) =>
  Object.entries(query)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');

/**
 * The id of the last record the collection at `prefix` lists, when it lists any (the last: a
 * team lists its owner, the caller, first, and the calm phase must not change the caller).
 */
async function listedId(
  baseUrl: string,
  prefix: string,
  auth: Auth,
  cache: Map<string, number | undefined>,
): Promise<number | undefined> {
  const key = `${auth.headers.Authorization ?? ''} ${prefix}`;
  if (cache.has(key)) return cache.get(key);
  let id: number | undefined;
  try {
    const query = encode(auth.query);
    const res = await fetch(`${baseUrl}${prefix}${query ? `?${query}` : ''}`, {
      headers: auth.headers,
    });
    const body = (await res.json()) as { data?: unknown };
    if (res.ok && Array.isArray(body.data)) {
      const last = body.data.at(-1) as { id?: unknown } | undefined;
      if (typeof last?.id === 'number') id = last.id;
    }
  } catch {
    id = undefined;
  }
  cache.set(key, id);
  return id;
}

const idCache = new Map<string, number | undefined>();

/** Every probe of one operation: a base request, then one mutation at a time. */
export async function buildPlan(
  baseUrl: string,
  document: FuzzDocument,
  operation: Operation,
  credentials: Credentials,
  /** How many requests this operation gets: the run is bounded, whatever the route count. */
  cap: number,
): Promise<Probe[]> {
  const isGet = operation.method === 'GET' || operation.method === 'DELETE';
  const auth = authFor(operation, credentials, isGet);
  const parameters = operation.object.parameters ?? [];

  // Path ids: a record of the collection above each parameter, else a fallback.
  const ids: Record<string, string> = {};
  let resolvedPath = operation.template;
  for (const match of operation.template.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1];
    const prefix = resolvedPath.slice(0, resolvedPath.indexOf(`/{${name}}`));
    const id =
      (await listedId(baseUrl, prefix, auth, idCache)) ?? credentials.fallbackIds[name] ?? 1;
    ids[name] = String(id);
    resolvedPath = resolvedPath.replace(`{${name}}`, String(id));
  }
  const pathWith = (overrides: Record<string, string> = {}) =>
    operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => overrides[name] ?? ids[name]);

  const baseQuery: Record<string, string> = { ...auth.query };
  for (const parameter of parameters) {
    if (parameter.in === 'query' && parameter.required && !(parameter.name in baseQuery)) {
      baseQuery[parameter.name] = String(sample(document, parameter.schema));
    }
    if (parameter.in === 'query' && parameter.name === 'visitor_uid') {
      baseQuery.visitor_uid = credentials.visitorUid;
    }
  }

  const bodySchema = resolve(
    document,
    operation.object.requestBody?.content['application/json']?.schema,
  );
  const properties = bodySchema.properties ?? {};
  const baseBody: Record<string, unknown> = {
    ...(sample(document, bodySchema) as Record<string, unknown>),
    ...auth.body,
  };
  if ('visitor_uid' in properties && 'widget_key' in auth.body) {
    baseBody.visitor_uid = credentials.visitorUid;
  }
  const hasBody = operation.object.requestBody !== undefined || Object.keys(auth.body).length > 0;
  const rawSuccessTypes = Object.entries(operation.object.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys(response?.content ?? {}))
    .filter((type) => type !== 'application/json');

  const probe = (
    options: {
      path?: string;
      query?: string;
      body?: string;
      headers?: Record<string, string>;
    } = {},
  ): Probe => {
    const query = options.query ?? encode(baseQuery);
    const headers = { ...auth.headers, ...options.headers };
    const body = options.body ?? (hasBody ? JSON.stringify(baseBody) : undefined);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return {
      method: operation.method,
      url: `${options.path ?? pathWith()}${query ? `?${query}` : ''}`,
      headers,
      body,
      ...(rawSuccessTypes.length > 0 ? { rawSuccessTypes } : {}),
    };
  };

  // Always: the base request, odd ids for each path parameter, and the worst bodies.
  const fixed: Probe[] = [probe()];
  for (const name of Object.keys(ids)) {
    for (const odd of ['0', 'abc', BIGINT_PAST, '99999999999999999999', '%00', '%ED%A0%80']) {
      fixed.push(probe({ path: pathWith({ [name]: odd }) }));
    }
  }
  // Every query parameter, whatever the budget: one past PostgreSQL's bigint (issue 25).
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    const rest = encode(
      Object.fromEntries(Object.entries(baseQuery).filter(([n]) => n !== parameter.name)),
    );
    fixed.push(probe({ query: `${rest}&${encodeURIComponent(parameter.name)}=${BIGINT_PAST}` }));
  }
  const sendsBody = hasBody || operation.method !== 'GET';
  const baseJson = JSON.stringify(baseBody);
  const withExtra = (extra: string) =>
    baseJson === '{}' ? `{${extra}}` : `${baseJson.slice(0, -1)},${extra}}`;
  if (sendsBody) {
    for (const body of ['[]', DEEP_JSON, withExtra(`"__proto__":${PROTO}`)]) {
      fixed.push(probe({ body }));
    }
  }

  // Then, within the budget, the first mutations of every list in turn.
  const lists: Probe[][] = [];
  for (const parameter of parameters.filter((p) => p.in === 'query')) {
    const name = encodeURIComponent(parameter.name);
    const rest = encode(
      Object.fromEntries(Object.entries(baseQuery).filter(([n]) => n !== parameter.name)),
    );
    // Integers just past PostgreSQL's bigint (both ends) and past any integer type.
    const values = [
      '-9223372036854775809',
      '%00',
      '%ED%A0%80',
      'x'.repeat(5000),
      '-1',
      '99999999999999999999',
      'abc',
    ];
    lists.push([
      ...values.map((raw) => probe({ query: `${rest}&${name}=${raw}` })),
      probe({ query: `${rest}&${name}=1&${name}=2` }),
      probe({ query: `${rest}&${name}[a]=1` }),
    ]);
  }
  for (const parameter of parameters.filter((p) => p.in === 'header')) {
    lists.push(
      ['x'.repeat(300), ' ', 'caf\u00e9'].map((value) =>
        probe({ headers: { [parameter.name]: value } }),
      ),
    );
  }
  if (sendsBody) {
    lists.push(
      [
        '"text"',
        '[{}]',
        '123',
        '{}',
        withExtra(`"constructor":{"prototype":{"polluted":true}}`),
        withExtra(`"fuzz_deep":${DEEP_JSON}`),
      ].map((body) => probe({ body })),
    );
    // Each property: wrong types and edge values; and each property of a nested object.
    for (const [name, schema] of Object.entries(properties)) {
      lists.push(
        mutations(document, schema).map((value) =>
          probe({ body: JSON.stringify({ ...baseBody, [name]: value }) }),
        ),
      );
      const nested = resolve(document, schema);
      const inner = nested.properties ?? resolve(document, nested.items).properties;
      if (!inner) continue;
      const wrap = (object: object) => (nested.type === 'array' ? [object] : object);
      const innerBase = sample(document, nested.items ?? nested) as object;
      for (const [innerName, innerSchema] of Object.entries(inner)) {
        lists.push(
          mutations(document, innerSchema).map((value) =>
            probe({
              body: JSON.stringify({
                ...baseBody,
                [name]: wrap({ ...innerBase, [innerName]: value }),
              }),
            }),
          ),
        );
      }
    }
  }
  return [...fixed, ...roundRobin(lists, Math.max(cap - fixed.length, 10))];
}

/** Up to `count` items: the first of every list, then the second of every list, and so on. */
function roundRobin<T>(lists: T[][], count: number): T[] {
  const out: T[] = [];
  for (let index = 0; out.length < count; index++) {
    const row = lists.filter((list) => index < list.length).map((list) => list[index]);
    if (row.length === 0) break;
    out.push(...row.slice(0, count - out.length));
  }
  return out;
}

const excerpt = (text: string | undefined, length: number) =>
  text === undefined
    ? '(none)'
    : text.length > length
      ? `${text.slice(0, length)}... (${text.length} characters)`
      : text;

/** Sends one probe; a description of what went wrong, or undefined when the answer is fine. */
export async function send(baseUrl: string, probe: Probe): Promise<string | undefined> {
  const describe = (outcome: string) =>
    `${probe.method} ${probe.url}\n  headers: ${JSON.stringify(probe.headers)}\n  body: ${excerpt(probe.body, 400)}\n  -> ${outcome}`;
  let status: number;
  let contentType: string;
  let text: string;
  try {
    const res = await fetch(`${baseUrl}${probe.url}`, {
      method: probe.method,
      headers: probe.headers,
      body: probe.body,
      signal: AbortSignal.timeout(20_000),
      // The browser routes (single sign-on) answer with redirects: the answer is the redirect.
      redirect: 'manual',
    });
    status = res.status;
    contentType = res.headers.get('content-type') ?? '';
    text = await res.text();
  } catch (error) {
    return describe(`no answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (status >= 500) return describe(`${status} ${excerpt(text, 300)}`);
  if (status === 204) return undefined;
  if (status >= 300 && status < 400) return undefined;
  // A success the document says is not JSON (a CSV export, a file) is not enveloped.
  if (status < 300 && probe.rawSuccessTypes?.some((type) => contentType.startsWith(type))) {
    return undefined;
  }
  if (!contentType.includes('application/json')) {
    return describe(`${status} without a JSON envelope (${contentType}): ${excerpt(text, 200)}`);
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return describe(`${status} with a body that is not JSON: ${excerpt(text, 200)}`);
  }
  const enveloped =
    typeof body.status === 'boolean' &&
    body.status === status < 400 &&
    typeof body.message === 'string' &&
    body.code === String(status) &&
    typeof body.datetime === 'string' &&
    (status < 400 || typeof body.error_code === 'string');
  return enveloped ? undefined : describe(`${status} outside the envelope: ${excerpt(text, 300)}`);
}
