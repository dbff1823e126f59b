import type { ValidationError } from 'class-validator';
import { AppError, type FieldErrors } from './app-error';

/**
 * Flattens class-validator's tree into the spec's `errors` map: `{ "filters.txn": ["..."] }`.
 * A required field that is missing says so ("The body field is required."), rather than quoting
 * whichever of its rules for a present value came first (its length, its format); a rule of its
 * own that already says when the field is required ("... required unless ...") is kept instead.
 */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    let messages = Object.values(error.constraints ?? {});
    if (messages.length > 0 && error.value === undefined) messages = missing(error, messages);
    if (messages.length > 0) result[field] = messages.map((text) => sentence(text));
    if (error.children?.length) Object.assign(result, toFieldErrors(error.children, field));
  }
  return result;
}

const REQUIRED = /\bfield is required\b/;

function missing(error: ValidationError, messages: string[]): string[] {
  const own = messages.filter((text) => REQUIRED.test(text));
  return own.length > 0 ? own : [`The ${error.property} field is required.`];
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function validationException(errors: ValidationError[]): AppError {
  return AppError.validation(toFieldErrors(errors));
}
