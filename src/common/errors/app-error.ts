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
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** Extra top-level fields of the error body (for example the failed health checks). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
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

  static forbidden(message: string): AppError {
    return new AppError('forbidden', message);
  }

  static conflict(message: string): AppError {
    return new AppError('conflict', message);
  }

  /** A 422 naming one field: `AppError.invalid('agent_user_id', 'The agent is not ...')`. */
  static invalid(field: string, message: string): AppError {
    return new AppError('validation_failed', message, { [field]: [message] });
  }

  static validation(errors: FieldErrors): AppError {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    return new AppError('validation_failed', first, errors);
  }
}
