import type { NextFunction, Request, Response } from 'express';
import { AppError, type FieldErrors } from '../errors/app-error';
import type { ErrorReason } from '../errors/reasons';

/** Deeper JSON than this is no request a client of this API sends; walking it is a risk. */
export const MAX_DEPTH = 32;

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What is wrong with one text, or undefined when it is fine. PostgreSQL cannot store a NUL in
 * text, and a lone surrogate is no Unicode character (it cannot be encoded as UTF-8): both are
 * refused wherever they come from, so no route has to remember them.
 */
export function textProblem(text: string, field: string): string | undefined {
  if (text.includes('\u0000')) return `The ${field} field must not contain NUL characters.`;
  if (LONE_SURROGATE.test(text))
    return `The ${field} field must be valid Unicode text (it holds an unpaired surrogate).`;
  return undefined;
}

/** A field name that can be shown back: a bad key is escaped (`\u0000`), a good one kept. */
function printable(key: string): string {
  return key.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what gets escaped
    /[\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * What is wrong with one number, or undefined. A JSON number past 2^53 is not even read exactly,
 * and no field of this API holds one: refusing them here keeps `1e308` out of every bigint id.
 */
export function numberProblem(value: number, field: string): string | undefined {
  if (Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) return undefined;
  return `The ${field} field must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`;
}

/**
 * The first problem of a parsed value (a JSON body, a query, the headers), as a one-field
 * `errors` map naming it by path (`rules.0.keywords.1`, as the validation errors do), or
 * undefined. Walked without recursion, so no input can exhaust the stack.
 */
export function findInputProblem(value: unknown, root = ''): FieldErrors | undefined {
  const problem = firstInputProblem(value, root);
  return problem && { [problem.field]: [problem.text] };
}

interface InputProblem {
  field: string;
  text: string;
  /** Its field code: `invalid_text`, `out_of_range` or `too_deep`. */
  reason: ErrorReason;
}

function firstInputProblem(value: unknown, root = ''): InputProblem | undefined {
  const pending: [unknown, string, number][] = [[value, root, 0]];
  while (pending.length > 0) {
    const [current, path, depth] = pending.pop()!;
    const field = path || 'body';
    if (typeof current === 'string') {
      const problem = textProblem(current, field);
      if (problem) return { field, text: problem, reason: 'invalid_text' };
      continue;
    }
    if (typeof current === 'number') {
      const problem = numberProblem(current, field);
      if (problem) return { field, text: problem, reason: 'out_of_range' };
      continue;
    }
    if (!current || typeof current !== 'object') continue;
    if (depth >= MAX_DEPTH) {
      return { field, text: `The ${field} field is nested too deeply.`, reason: 'too_deep' };
    }
    for (const [key, item] of Object.entries(current)) {
      const child = path ? `${path}.${printable(key)}` : printable(key);
      const problem = textProblem(key, child);
      if (problem) {
        return {
          field: child,
          text: `The ${child} field name is not valid text.`,
          reason: 'invalid_text',
        };
      }
      pending.push([item, child, depth + 1]);
    }
  }
  return undefined;
}

/**
 * Applies the rules for text (and numbers) at the edge to everything a route can read, before
 * any guard or pipe runs: the query string, the headers and the parsed JSON body. The first
 * problem is a 422 naming its field.
 */
export function refuseUnreadableText(request: Request, _response: Response, next: NextFunction) {
  const problem =
    firstInputProblem(request.query) ??
    firstInputProblem(request.headers) ??
    firstInputProblem(request.body as unknown);
  next(
    problem ? AppError.validation({ [problem.field]: [problem.text] }, problem.reason) : undefined,
  );
}
