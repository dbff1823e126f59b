import { ValidationPipe } from '@nestjs/common';
import { validationException } from '../errors/validation';

/**
 * The one validation pipe: unknown fields are dropped (not an error), types are converted only
 * where a DTO says so, and failures become the spec's 422 with an `errors` map.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: validationException,
  });
}
