import { keepIdleConnectionsOpen } from '../../src/common/http/keep-alive';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

interface Operation {
  pattern: RegExp;
  method: string;
  template: string;
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

/** Rewrites local refs to the shared document and closes objects, so undocumented fields fail. */
function prepare(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(prepare);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === '$ref' && typeof value === 'string' ? value.replace(/^#\//, 'doc#/') : prepare(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/**
 * Checks every JSON response against the OpenAPI document the app serves: the route and status
 * must be documented, and the body must match the schema exactly (no undocumented field).
 */
export class OpenApiValidator {
  private operations: Operation[] = [];
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction | null>();
  readonly violations: string[] = [];

  static async load(appUrl: string): Promise<OpenApiValidator> {
    const document = (await (await fetch(`${appUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, Operation['responses'] extends infer R ? { responses: R } : never>
      >;
      components: Json;
    };
    const validator = new OpenApiValidator();
    addFormats(validator.ajv);
    validator.ajv.addSchema({ $id: 'doc', components: prepare(document.components) });
    for (const [template, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, operation] of Object.entries(item)) {
        validator.operations.push({
          pattern,
          method: method.toUpperCase(),
          template,
          responses: operation.responses,
        });
      }
    }
    return validator;
  }

  check(
    method: string,
    url: string,
    status: number,
    contentType: string | undefined,
    body: string,
  ): void {
    const path = url.split('?')[0];
    const candidates = this.operations.filter((op) => op.pattern.test(path));
    if (candidates.length === 0) return; // unknown routes and the raw documents are not API operations
    const operation = candidates.find((op) => op.method === method);
    if (!operation) return; // a wrong method is answered as an unknown route (404)
    const name = `${method} ${operation.template} -> ${status}`;
    const response = operation.responses[String(status)];
    if (!response) {
      this.violations.push(`${name}: status not documented`);
      return;
    }
    if (!contentType?.includes('application/json')) return;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      this.violations.push(`${name}: no response schema documented`);
      return;
    }
    const key = `${operation.method} ${operation.template} ${status}`;
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(prepare(schema) as Json);
      this.compiled.set(key, validate);
    }
    if (validate && !validate(JSON.parse(body))) {
      this.violations.push(`${name}: ${this.ajv.errorsText(validate.errors)}`);
    }
  }
}

/**
 * A pass-through proxy in front of the app that checks every response it carries against the
 * app's OpenAPI document. `close()` resolves with the violations seen.
 */
export async function startValidatingProxy(
  appUrl: string,
): Promise<{ url: string; close(): Promise<string[]> }> {
  const target = new URL(appUrl);
  // Loaded now, while the app surely runs: a test may kill it right after its last request.
  const validator = OpenApiValidator.load(appUrl);
  validator.catch(() => undefined);
  const checks: Promise<void>[] = [];
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
          checks.push(
            validator.then((v) =>
              v.check(
                req.method ?? 'GET',
                req.url ?? '/',
                answer.statusCode ?? 0,
                answer.headers['content-type'],
                body.toString('utf8'),
              ),
            ),
          );
        });
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  // As long as the app's: the proxy passes on the app's `Keep-Alive: timeout=` hint.
  keepIdleConnectionsOpen(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      // Nothing went through: nothing to check (the app may be gone before its document came).
      if (checks.length === 0) return [];
      await Promise.allSettled(checks);
      return [...new Set((await validator).violations)];
    },
  };
}
