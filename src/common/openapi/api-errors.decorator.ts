import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorDto, ValidationErrorDto } from './envelope.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON body (`malformed_json`)',
  401: 'Missing or invalid credentials (`Unauthenticated.`)',
  402: 'Subscription expired past the grace period',
  403: 'Missing ability, feature not in plan, or role too low',
  404: 'Not found, or owned by another organization (`Not found.`)',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  422: 'Validation failed; `errors` names each field',
  429: 'Rate limit exceeded (`Too Many Attempts.`)',
  500: 'Unexpected server error (`Server error.`)',
  503: 'A dependency is unavailable',
};

/** Documents the error responses a route can give, each in the error envelope. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        type: status === 422 ? ValidationErrorDto : ErrorDto,
      }),
    ),
  );
}

/**
 * A public POST or PATCH that honours `Idempotency-Key`: documents the header, the replay
 * header, the 409 while the first request runs and the 422 when the key is reused.
 */
export function ApiIdempotent() {
  return applyDecorators(
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 characters. The first response is kept 24 hours and replayed with Idempotent-Replayed: true.',
    }),
    ApiResponse({
      status: 409,
      description: 'A request with this Idempotency-Key is still running',
      type: ErrorDto,
    }),
    ApiResponse({ status: 422, description: DESCRIPTIONS[422], type: ValidationErrorDto }),
  );
}
