import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
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
