import type { ErrorReason } from './reasons';

/** Every error the API can answer with, as listed in DESIGN section 3 plus the transport ones. */
export type ErrorCode =
  | 'malformed_json'
  | 'malformed_request'
  | 'unauthenticated'
  | 'payment_required'
  | 'subscription_expired'
  | 'organization_suspended'
  | 'missing_ability'
  | 'feature_not_in_plan'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable';

export type FieldErrors = Record<string, string[]>;

/** Each field of `errors` with one slug per text, in the same order (`field_reasons`). */
export type FieldReasons = Record<string, ErrorReason[]>;

/** What an error carries beside its code and text. */
export interface AppErrorDetails {
  /** The domain reason (`error_reason`): what the apps look up in their catalogs. */
  reason?: ErrorReason;
  errors?: FieldErrors;
  /** The slug of each text of `errors`; a field left out gets `invalid` for each text. */
  fieldReasons?: FieldReasons;
  headers?: Record<string, string>;
  /** Extra top-level fields of the error body (for example the failed health checks). */
  extra?: Record<string, unknown>;
}

/** The status every code answers with; the switch is exhaustive, so a new code must be mapped. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'malformed_json':
    case 'malformed_request':
      return 400;
    case 'unauthenticated':
      return 401;
    case 'payment_required':
    case 'subscription_expired':
    case 'organization_suspended':
      return 402;
    case 'missing_ability':
    case 'feature_not_in_plan':
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'validation_failed':
      return 422;
    case 'rate_limited':
      return 429;
    case 'internal_error':
      return 500;
    case 'service_unavailable':
      return 503;
  }
}

/** A failure the client can act on. Thrown anywhere; the global filter renders it. */
export class AppError extends Error {
  readonly reason?: ErrorReason;
  readonly errors?: FieldErrors;
  readonly fieldReasons?: FieldReasons;
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: AppErrorDetails = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.reason = details.reason;
    this.errors = details.errors;
    this.fieldReasons = details.fieldReasons;
    this.headers = details.headers;
    this.extra = details.extra;
  }

  get status(): number {
    return statusOf(this.code);
  }

  static notFound(): AppError {
    return new AppError('not_found', 'Not found.');
  }

  static unauthenticated(): AppError {
    return new AppError('unauthenticated', 'Unauthenticated.');
  }

  static forbidden(message: string, reason: ErrorReason): AppError {
    return new AppError('forbidden', message, { reason });
  }

  static conflict(message: string, reason: ErrorReason): AppError {
    return new AppError('conflict', message, { reason });
  }

  /** A 422 naming one field: `AppError.invalid('agent_user_id', 'The agent is ...', 'agent_not_in_organization')`. */
  static invalid(field: string, message: string, reason: ErrorReason): AppError {
    return new AppError('validation_failed', message, {
      reason,
      errors: { [field]: [message] },
      fieldReasons: { [field]: [reason] },
    });
  }

  /**
   * A 422 naming fields, with the slug of each text (or one slug for all of them). Its message
   * is the first text, and its reason the slug of that text.
   */
  static validation(errors: FieldErrors, reasons: FieldReasons | ErrorReason): AppError {
    const first = Object.keys(errors)[0];
    const message =
      (first !== undefined ? errors[first][0] : undefined) ?? 'The given data was invalid.';
    const fieldReasons: FieldReasons =
      typeof reasons === 'string'
        ? Object.fromEntries(
            Object.entries(errors).map(([field, texts]) => [field, texts.map(() => reasons)]),
          )
        : reasons;
    const reason = first !== undefined ? (fieldReasons[first]?.[0] ?? 'invalid') : undefined;
    return new AppError('validation_failed', message, { reason, errors, fieldReasons });
  }
}

/** The `field_reasons` of an error: one slug per text of each field, `invalid` where none was given. */
export function fieldReasonsOf(error: AppError): FieldReasons | undefined {
  if (!error.errors) return undefined;
  return Object.fromEntries(
    Object.entries(error.errors).map(([field, texts]) => {
      const given = error.fieldReasons?.[field] ?? [];
      return [field, texts.map((_, index) => given[index] ?? 'invalid')];
    }),
  );
}
