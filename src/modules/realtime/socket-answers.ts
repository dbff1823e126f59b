import { AppError, fieldReasonsOf } from '../../common/errors/app-error';
import { textProblem } from '../../common/http/text-rule';

/** What a socket handler acknowledges: `{ status: true, ... }` or the error in the HTTP shape. */
export type Answer = Record<string, unknown> & { status: boolean };

/** Runs a handler; an AppError becomes `{ status: false, error_code, message, error_reason }`, not a dropped ack. */
export async function answer(work: () => Promise<Record<string, unknown>>): Promise<Answer> {
  try {
    return { status: true, ...(await work()) };
  } catch (error) {
    if (error instanceof AppError) {
      return {
        status: false,
        error_code: error.code,
        message: error.message,
        ...(error.reason ? { error_reason: error.reason } : {}),
        ...(error.errors ? { errors: error.errors, field_reasons: fieldReasonsOf(error) } : {}),
      };
    }
    throw error;
  }
}

/** A positive integer id from a socket payload, as a string; else a 422-shaped answer. */
export function idField(
  payload: unknown,
  name: string,
  { optional = false } = {},
): string | undefined {
  const value =
    payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[name] : undefined;
  if (value === undefined && optional) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  throw AppError.invalid(name, `The ${name} field must be a non-negative integer.`, 'not_integer');
}

export function booleanField(payload: unknown, name: string): boolean {
  const value =
    payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[name] : undefined;
  if (typeof value === 'boolean') return value;
  throw AppError.invalid(name, `The ${name} field must be true or false.`, 'not_boolean');
}

export function textField(payload: unknown, name: string, maxLength: number): string {
  const value =
    payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[name] : undefined;
  if (typeof value === 'string' && value.trim().length > 0 && value.length <= maxLength) {
    // The HTTP edge's text rule, for the one text a socket event carries.
    const problem = textProblem(value, name);
    if (problem) throw AppError.invalid(name, problem, 'invalid_text');
    return value;
  }
  throw AppError.invalid(
    name,
    `The ${name} field must be a non-empty string of at most ${maxLength} characters.`,
    'too_long',
  );
}

/** The token of a Socket.IO handshake: `auth.token`, or an `Authorization: Bearer` header. */
export function handshakeToken(handshake: {
  auth?: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}): string | undefined {
  const fromAuth = handshake.auth?.token;
  if (typeof fromAuth === 'string' && fromAuth.length > 0) return fromAuth;
  const header = handshake.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * A socket message's content, as the HTTP route takes it: `body` (at most `maxLength`), and
 * `attachment_ids` (at most `maxAttachments` ids); the body may be empty only with attachments.
 */
export function messageContent(
  payload: unknown,
  maxLength: number,
  maxAttachments: number,
): { body: string; attachmentIds?: number[] } {
  const fields = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  const ids = fields.attachment_ids;
  if (ids === undefined || (Array.isArray(ids) && ids.length === 0)) {
    return { body: textField(payload, 'body', maxLength) };
  }
  if (
    !Array.isArray(ids) ||
    ids.length > maxAttachments ||
    !ids.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id >= 1)
  ) {
    throw AppError.invalid(
      'attachment_ids',
      `The attachment_ids field must be a list of at most ${maxAttachments} attachment ids.`,
      'too_many',
    );
  }
  const body = fields.body ?? '';
  if (typeof body !== 'string' || body.length > maxLength) {
    throw AppError.invalid(
      'body',
      `The body field must be a string of at most ${maxLength} characters.`,
      'too_long',
    );
  }
  return { body, attachmentIds: ids as number[] };
}
