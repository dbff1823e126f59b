import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The committed document (`npm run check` keeps it equal to a fresh one) declares the headers the
 * API sends: X-RateLimit-* on every public API answer given once the key is known, Retry-After on
 * every 429, Idempotent-Replayed wherever a kept response can be replayed.
 */
interface Response {
  headers?: Record<string, unknown>;
}
interface Operation {
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string }[];
  responses: Record<string, Response>;
}

const document = JSON.parse(
  readFileSync(join(__dirname, '../../../openapi/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, Operation>> };

const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, operation })),
);
const usesApiKey = (operation: Operation) =>
  (operation.security ?? []).some((scheme) => 'api_key' in scheme || 'service_key' in scheme);
/** Answers given before the key is known (body parser, authentication) carry no limit headers. */
const BEFORE_THE_KEY = ['400', '401'];

describe('response headers in the OpenAPI document', () => {
  it('declares X-RateLimit-* on every public API answer after authentication', () => {
    const missing: string[] = [];
    for (const { name, operation } of operations.filter((each) => usesApiKey(each.operation))) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (BEFORE_THE_KEY.includes(status)) continue;
        for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
          if (!response.headers?.[header]) missing.push(`${name} ${status} ${header}`);
        }
      }
    }
    expect(operations.filter((each) => usesApiKey(each.operation)).length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it('declares Retry-After on every 429', () => {
    const with429 = operations.filter((each) => each.operation.responses['429']);
    expect(with429.length).toBeGreaterThan(20);
    expect(
      with429.filter((each) => !each.operation.responses['429'].headers?.['Retry-After']),
    ).toEqual([]);
  });

  it('declares Idempotent-Replayed on the answers of every operation taking Idempotency-Key', () => {
    const idempotent = operations.filter((each) =>
      (each.operation.parameters ?? []).some(
        (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      ),
    );
    expect(idempotent.length).toBeGreaterThan(4);
    const missing: string[] = [];
    for (const { name, operation } of idempotent) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (BEFORE_THE_KEY.includes(status) || Number(status) >= 500) continue;
        if (!response.headers?.['Idempotent-Replayed']) missing.push(`${name} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
