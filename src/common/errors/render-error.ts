import { envelope } from '../http/envelope';
import { AppError, type ErrorCode, fieldReasonsOf, statusOf } from './app-error';

/** Errors raised by body-parser before any route runs, keyed by its `type`. */
const PARSER_ERRORS: Record<string, [ErrorCode, string]> = {
  'entity.parse.failed': ['malformed_json', 'The request body is not valid JSON.'],
  'entity.too.large': ['payload_too_large', 'The request body is too large.'],
  'encoding.unsupported': ['unsupported_media_type', 'The request body encoding is not supported.'],
  'charset.unsupported': ['unsupported_media_type', 'The request body charset is not supported.'],
  'request.aborted': ['malformed_json', 'The request body was not received completely.'],
  'request.size.invalid': ['malformed_json', 'The request body length does not match its header.'],
};

/** Nest's own HTTP exceptions (unknown route, wrong method, unreadable body...) by status. */
const HTTP_STATUS_CODES: Record<number, [ErrorCode, string]> = {
  400: ['malformed_json', 'The request body is not valid JSON.'],
  401: ['unauthenticated', 'Unauthenticated.'],
  403: ['forbidden', 'This action is forbidden.'],
  404: ['not_found', 'Not found.'],
  405: ['method_not_allowed', 'Method not allowed.'],
  409: ['conflict', 'The request conflicts with the current state.'],
  413: ['payload_too_large', 'The request body is too large.'],
  415: ['unsupported_media_type', 'Unsupported media type.'],
  422: ['validation_failed', 'The given data was invalid.'],
  429: ['rate_limited', 'Too Many Attempts.'],
  503: ['service_unavailable', 'Service unavailable.'],
};

/** Nest's HttpException, recognised by shape so this module stays framework-free. */
function httpStatusOf(exception: unknown): number | undefined {
  const candidate = exception as { getStatus?: unknown } | null;
  if (candidate && typeof candidate.getStatus === 'function') {
    const status: unknown = (candidate.getStatus as () => unknown).call(candidate);
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/** The AppError an exception stands for, or undefined when it is unexpected. */
export function toAppError(exception: unknown): AppError | undefined {
  if (exception instanceof AppError) return exception;
  // A path segment that is not valid percent-encoded UTF-8 (Express could not decode the
  // parameter) names nothing: the 404 of an unknown record, not a 400 about the body.
  if (exception instanceof URIError) return AppError.notFound();
  const type = (exception as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && PARSER_ERRORS[type]) return new AppError(...PARSER_ERRORS[type]);
  const status = httpStatusOf(exception);
  if (status !== undefined && HTTP_STATUS_CODES[status])
    return new AppError(...HTTP_STATUS_CODES[status]);
  return undefined;
}

/** A response recorded earlier (an idempotent replay of an error), sent again byte for byte. */
export class StoredResponse extends Error {
  constructor(
    readonly status: number,
    /** The body exactly as it was first sent (JSON text). */
    readonly json: string,
    readonly headers: Record<string, string>,
  ) {
    super('stored response');
  }
}

export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** True when the error was not expected: log it with the request id; the body says nothing. */
  unexpected: boolean;
  /** The body as JSON text to send as it is, when it was serialized before (a replay). */
  json?: string;
}

export function renderError(exception: unknown): RenderedError {
  if (exception instanceof StoredResponse) {
    return {
      status: exception.status,
      headers: exception.headers,
      body: JSON.parse(exception.json) as Record<string, unknown>,
      unexpected: false,
      json: exception.json,
    };
  }
  const known = toAppError(exception);
  const error = known ?? new AppError('internal_error', 'Server error.');
  const status = statusOf(error.code);
  const body: Record<string, unknown> = {
    ...envelope(status, error.message, error.code),
    ...error.extra,
  };
  if (error.reason) body.error_reason = error.reason;
  if (error.errors) {
    body.errors = error.errors;
    body.field_reasons = fieldReasonsOf(error);
  }
  return { status, headers: error.headers ?? {}, body, unexpected: !known };
}
