import { Param, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { AppError } from '../errors/app-error';

const MAX_ID = 9_223_372_036_854_775_807n;

/** A path id that is not a positive integer names nothing: 404, as for another tenant's record. */
class IdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^[1-9]\d{0,18}$/.test(value) || BigInt(value) > MAX_ID) throw AppError.notFound();
    return value;
  }
}

/** `@IdParam('ticket') id: string`: a validated bigint id, kept as a string. */
export const IdParam = (name: string) => Param(name, new IdPipe());

export const ApiIdParam = (name: string) =>
  applyDecorators(ApiParam({ name, type: 'integer', required: true }));
