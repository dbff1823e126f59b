import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  isEmail,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
} from 'class-validator';
import { DateTime } from 'luxon';
import { QueryInt } from '../../common/http/pagination';
import { localDate } from './availability';

/*
 * The field rules of the appointment requests (appointments.dto.ts): dates, instants with an
 * offset, the contact pair (email or phone), optional texts and ids.
 */

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar date `YYYY-MM-DD` (a real one: no 30 February). */
export const IsLocalDate = () => (target: object, propertyName: string) =>
  registerDecorator({
    name: 'isLocalDate',
    target: target.constructor,
    propertyName,
    options: { message: `${propertyName} must be a date in the form YYYY-MM-DD` },
    validator: {
      validate: (value: unknown) => typeof value === 'string' && !!localDate(value, 'UTC'),
    },
  });

/** An ISO 8601 date and time with an offset (`Z` or `+02:00`). */
export const IsInstantWithOffset = () => (target: object, propertyName: string) =>
  registerDecorator({
    name: 'isInstantWithOffset',
    target: target.constructor,
    propertyName,
    options: {
      message: `${propertyName} must be an ISO 8601 date and time with an offset, such as 2027-03-29T09:00:00+02:00`,
    },
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        INSTANT.test(value) &&
        DateTime.fromISO(value, { setZone: true }).isValid,
    },
  });

/** A blank string counts as left out (a widget form sends its empty fields). */
const BlankIsOmitted = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() === '' ? undefined : value,
  );

/**
 * One of two contact fields of which at least one is required: validated when given or when the
 * other is missing, with one sentence per problem.
 */
export const ContactField = (other: string, problem: (value: unknown) => string | undefined) =>
  applyDecorators(
    BlankIsOmitted(),
    ValidateIf(
      (object: Record<string, unknown>, value: unknown) =>
        value !== undefined || object[other] === undefined,
    ),
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'contactField',
        target: target.constructor,
        propertyName: String(propertyName),
        validator: {
          validate: (value: unknown) => value !== undefined && problem(value) === undefined,
          defaultMessage: (args) =>
            args?.value === undefined
              ? `The ${String(propertyName)} field is required when ${other} is not present.`
              : `${String(propertyName)} ${problem(args.value)}`,
        },
      }),
  );

export const textProblem = (value: unknown) =>
  typeof value !== 'string'
    ? 'must be a string'
    : value.length > 255
      ? 'must be shorter than or equal to 255 characters'
      : undefined;

export const emailProblem = (value: unknown) =>
  textProblem(value) ?? (isEmail(value) ? undefined : 'must be an email');

export const OptionalText = (maxLength: number, description: string, example: string) =>
  applyDecorators(
    ApiPropertyOptional({ maxLength, description, example }),
    BlankIsOmitted(),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );

export const PositiveInt = () => applyDecorators(IsInt(), Min(1), Max(Number.MAX_SAFE_INTEGER));

/** The `site_id` query of the agent endpoints: settings and appointments are per site. */
export const SiteIdQuery = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      description:
        "A site of the organization (404 otherwise); default the organization's first site",
    }),
    IsOptional(),
    QueryInt(),
    PositiveInt(),
  );
