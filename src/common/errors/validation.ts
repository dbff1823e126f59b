import type { ValidationError } from 'class-validator';
import { AppError, type FieldErrors, type FieldReasons } from './app-error';
import type { ErrorReason } from './reasons';

/**
 * The generic field code of each class-validator rule (its constraint name): what the apps show
 * a sentence for. A rule not listed (a custom one) is `invalid`.
 */
const RULE_REASONS: Record<string, ErrorReason> = {
  isDefined: 'required',
  isNotEmpty: 'not_empty',
  isString: 'not_string',
  isInt: 'not_integer',
  isNumber: 'not_number',
  isBoolean: 'not_boolean',
  isArray: 'not_list',
  isObject: 'not_object',
  nestedValidation: 'not_object',
  isEmail: 'not_email',
  isUrl: 'not_url',
  isIn: 'not_in_list',
  isEnum: 'not_in_list',
  arrayUnique: 'not_unique',
  maxLength: 'too_long',
  minLength: 'too_short',
  arrayMaxSize: 'too_many',
  arrayMinSize: 'too_few',
  min: 'too_small',
  max: 'too_large',
  matches: 'invalid_format',
  isUUID: 'invalid_format',
  isTimeZone: 'not_time_zone',
  isLocalDate: 'not_date',
  isInstantWithOffset: 'not_date',
};

/** The field code of a class-validator constraint name. */
export function ruleReason(constraint: string): ErrorReason {
  return RULE_REASONS[constraint] ?? 'invalid';
}

/**
 * Flattens class-validator's tree into the spec's `errors` map: `{ "filters.txn": ["..."] }`.
 * A required field that is missing says so ("The body field is required."), rather than quoting
 * whichever of its rules for a present value came first (its length, its format); a rule of its
 * own that already says when the field is required ("... required unless ...") is kept instead.
 */
export function toFieldErrors(errors: ValidationError[]): FieldErrors {
  return toFieldProblems(errors).errors;
}

/** The `errors` map and, text for text, the field code of each failed rule (`field_reasons`). */
export function toFieldProblems(
  errors: ValidationError[],
  parent = '',
  result: { errors: FieldErrors; reasons: FieldReasons } = { errors: {}, reasons: {} },
): { errors: FieldErrors; reasons: FieldReasons } {
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    let rules = Object.entries(error.constraints ?? {}).map(
      ([constraint, text]): [ErrorReason, string] => [ruleReason(constraint), text],
    );
    if (rules.length > 0 && error.value === undefined) rules = missing(error, rules);
    if (rules.length > 0) {
      result.errors[field] = rules.map(([, text]) => sentence(text));
      result.reasons[field] = rules.map(([reason]) => reason);
    }
    if (error.children?.length) toFieldProblems(error.children, field, result);
  }
  return result;
}

const REQUIRED = /\bfield is required\b/;

function missing(error: ValidationError, rules: [ErrorReason, string][]): [ErrorReason, string][] {
  const own = rules.filter(([, text]) => REQUIRED.test(text));
  return own.length > 0
    ? own.map(([, text]) => ['required', text])
    : [['required', `The ${error.property} field is required.`]];
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export function validationException(errors: ValidationError[]): AppError {
  const problems = toFieldProblems(errors);
  return AppError.validation(problems.errors, problems.reasons);
}
