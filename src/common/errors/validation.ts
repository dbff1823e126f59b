import type { ValidationError } from 'class-validator';
import { AppError, type FieldErrors } from './app-error';

/** Flattens class-validator's tree into the spec's `errors` map: `{ "filters.txn": ["..."] }`. */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length > 0) result[field] = messages.map((text) => sentence(text));
    if (error.children?.length) Object.assign(result, toFieldErrors(error.children, field));
  }
  return result;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function validationException(errors: ValidationError[]): AppError {
  return AppError.validation(toFieldErrors(errors));
}
