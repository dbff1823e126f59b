import { keepIdleConnectionsOpen } from '../../src/common/http/keep-alive';
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from './test-env';

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
 * The committed OpenAPI document (openapi/openapi.json): the contract clients rely on. `npm run
 * check` holds it equal to the document the app builds (`openapi:check`), and foundation checks
 * that the app serves that document; so every app of a run is checked against it, read and
 * compiled once per jest worker instead of built by each app it starts (see `perWorker`).
 */
export const COMMITTED_DOCUMENT = path.join(ROOT, 'openapi', 'openapi.json');

interface Contract {
  operations: Operation[];
  ajv: Ajv;
  /** Compiled response schemas by "METHOD template status"; null: no schema. */
  compiled: Map<string, ValidateFunction | null>;
}

/**
 * Where the contract is kept for the whole jest worker. Jest gives every test file a registry of
 * modules of its own, so a module-level variable here lasts one file (and each file read the
 * document and compiled the validators it used again: about 0.2 s and 10 ms a schema). Node's
 * built-in modules are the same object in every file of a worker, so the contract hangs on one.
 */
const perWorker = os as typeof os & { supportChatOpenApiContract?: Contract };

function loadContract(): Contract {
  const kept = perWorker.supportChatOpenApiContract;
  if (kept) return kept;
  const document = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as {
    paths: Record<
      string,
      Record<string, Operation['responses'] extends infer R ? { responses: R } : never>
    >;
    components: Json;
  };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: prepare(document.components) });
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      operations.push({
        pattern,
        method: method.toUpperCase(),
        template,
        responses: operation.responses,
      });
    }
  }
  const contract: Contract = { operations, ajv, compiled: new Map() };
  perWorker.supportChatOpenApiContract = contract;
  return contract;
}

/**
 * Checks every JSON response against the OpenAPI document: the route and status must be
 * documented, and the body must match the schema exactly (no undocumented field).
 */
export class OpenApiValidator {
  private readonly contract = loadContract();
  readonly violations: string[] = [];

  check(
    method: string,
    url: string,
    status: number,
    contentType: string | undefined,
    body: string,
  ): void {
    const path = url.split('?')[0];
    const { operations, ajv, compiled } = this.contract;
    const candidates = operations.filter((op) => op.pattern.test(path));
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
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = ajv.compile(prepare(schema) as Json);
      compiled.set(key, validate);
    }
    if (validate && !validate(JSON.parse(body))) {
      this.violations.push(`${name}: ${ajv.errorsText(validate.errors)}`);
    }
  }
}

/**
 * A pass-through proxy in front of the app that checks every response it carries against the
 * OpenAPI document. `close()` resolves with the violations seen.
 */
export async function startValidatingProxy(
  appUrl: string,
): Promise<{ url: string; close(): Promise<string[]> }> {
  const target = new URL(appUrl);
  const validator = new OpenApiValidator();
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
          validator.check(
            req.method ?? 'GET',
            req.url ?? '/',
            answer.statusCode ?? 0,
            answer.headers['content-type'],
            body.toString('utf8'),
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
      return [...new Set(validator.violations)];
    },
  };
}
