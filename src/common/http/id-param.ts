import { Param, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { registerDecorator, type ValidationOptions } from 'class-validator';
import { AppError } from '../errors/app-error';

/** PostgreSQL's `bigint` ceiling: every id column is a bigint. */
const MAX_ID = 9_223_372_036_854_775_807n;

/**
 * The one rule for what can be an id, in a path or a query: a positive integer that PostgreSQL's
 * `bigint` holds. Anything else would reach the database as an out-of-range value (a 500).
 */
export function isDatabaseId(value: unknown): value is string {
  return typeof value === 'string' && /^[1-9]\d{0,18}$/.test(value) && BigInt(value) <= MAX_ID;
}

/**
 * A query field holding an id or one of a few words (`me`, `none`): a 422 naming the field for
 * anything else, out-of-range integers included.
 */
export function IsIdOr(words: readonly string[], options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIdOr',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) =>
          isDatabaseId(value) || (typeof value === 'string' && words.includes(value)),
      },
    });
}

/** A path id that is not a positive integer names nothing: 404, as for another tenant's record. */
class IdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isDatabaseId(value)) throw AppError.notFound();
    return value;
  }
}

/** `@IdParam('ticket') id: string`: a validated bigint id, kept as a string. */
export const IdParam = (name: string) => Param(name, new IdPipe());

export const ApiIdParam = (name: string) =>
  applyDecorators(ApiParam({ name, type: 'integer', required: true }));
