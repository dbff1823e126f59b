import { BoundedMap } from '../bounded-map';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { validationException } from '../errors/validation';
import { bodyShapeErrors, bodyShapeReasons } from './body-shape';

const MAX_CACHED_QUERIES = 500;

/**
 * The one validation pipe: unknown fields are dropped (not an error), types are converted only
 * where a DTO says so, and failures become the spec's 422 with an `errors` map.
 *
 * A query string that passed once is not transformed and validated again: the result of the
 * same query for the same DTO is the same (the query DTOs hold strings turned into numbers and
 * enums, nothing that depends on anything else), so lists read it from a small cache, per DTO,
 * and get their own copy. Failures are not kept, and neither are bodies.
 *
 * A body is first checked against its DTO's documented shape (`bodyShapeErrors`): `null` only
 * where documented nullable, objects where objects belong. The text rule (NUL, lone surrogates)
 * runs earlier, as a middleware: guards read the body too.
 */
class CachingValidationPipe extends ValidationPipe {
  private readonly queries = new WeakMap<object, BoundedMap<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const key = metadata.type === 'query' ? cacheKey(value) : undefined;
    const metatype = metadata.metatype;
    if (
      metadata.type === 'body' &&
      metadata.data === undefined &&
      metatype &&
      this.toValidate(metadata)
    ) {
      const errors = bodyShapeErrors(value, metatype);
      if (Object.keys(errors).length > 0)
        throw AppError.validation(errors, bodyShapeReasons(errors));
    }
    if (key === undefined || !metatype || !this.toValidate(metadata)) {
      return super.transform(value, metadata);
    }
    let cached = this.queries.get(metatype);
    if (!cached) this.queries.set(metatype, (cached = new BoundedMap(MAX_CACHED_QUERIES)));
    const hit = cached.get(key);
    if (hit) return copy(hit);
    const result: unknown = await super.transform(value, metadata);
    if (result && typeof result === 'object') {
      cached.set(key, copy(result));
    }
    return result;
  }
}

/** A shallow copy keeping the DTO's class (query DTOs hold only plain values). */
function copy(instance: object): object {
  return Object.assign(
    Object.create(Object.getPrototypeOf(instance) as object) as object,
    instance,
  );
}

/** The query as a cache key when it holds only strings (a plain `a=1&b=2`), else undefined. */
function cacheKey(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  for (const field of Object.values(value)) if (typeof field !== 'string') return undefined;
  return JSON.stringify(value);
}

export function createValidationPipe(): ValidationPipe {
  return new CachingValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The value tells a missing field from a wrong one; it never reaches the answer.
    validationError: { target: false, value: true },
    exceptionFactory: validationException,
  });
}
