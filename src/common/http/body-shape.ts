import type { FieldErrors, FieldReasons } from '../errors/app-error';

/** Where @nestjs/swagger keeps each documented property's options (`@ApiProperty`). */
const PROPERTY = 'swagger/apiModelProperties';
const PROPERTIES = 'swagger/apiModelPropertiesArray';

interface PropertyDocs {
  type?: unknown;
  isArray?: boolean;
  nullable?: boolean;
}

type Constructor = abstract new (...args: never[]) => unknown;

/** A class documented with `@ApiProperty` (a DTO), as opposed to String, Number, Object... */
function isDto(type: unknown): type is Constructor {
  return typeof type === 'function' && Reflect.hasMetadata(PROPERTIES, type.prototype as object);
}

/** The DTO a property holds, if any: `type: X`, `type: () => X` or the TypeScript type. */
function nestedDto(prototype: object, key: string, docs: PropertyDocs): Constructor | undefined {
  let type: unknown = docs.type ?? (Reflect.getMetadata('design:type', prototype, key) as unknown);
  if (typeof type === 'function' && !isDto(type) && !('prototype' in type)) {
    type = (type as () => unknown)();
  }
  return isDto(type) ? type : undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Settles what class-validator leaves open, from the DTO's documented shape (the same
 * `@ApiProperty` the OpenAPI document is built from):
 * - `null` is accepted only where the property is documented `nullable`, and then it has the
 *   documented meaning (such as "unassign"); anywhere else it is a wrong type, a 422 naming the
 *   field, as the document says (`@IsOptional()` alone would let it through to the service);
 * - a property holding a DTO must be a JSON object (an array or a string is a 422 naming it),
 *   and so must every item of a documented array of DTOs.
 * Unknown properties are left alone: the whitelist drops them. The text rule has bounded the
 * depth already (`MAX_DEPTH`), so the recursion is bounded too.
 */
export function bodyShapeErrors(body: unknown, dto: Constructor): FieldErrors {
  const errors: FieldErrors = {};
  if (body === undefined) return errors;
  if (isPlainObject(body)) checkObject(body, dto, '', errors);
  else errors.body = ['The request body must be a JSON object.'];
  return errors;
}

/** The field code of each text `bodyShapeErrors` gives: `not_null` or `not_object`. */
export function bodyShapeReasons(errors: FieldErrors): FieldReasons {
  return Object.fromEntries(
    Object.entries(errors).map(([field, texts]) => [
      field,
      texts.map((text) => (text.endsWith('must not be null.') ? 'not_null' : 'not_object')),
    ]),
  );
}

function checkObject(
  object: Record<string, unknown>,
  type: Constructor,
  parent: string,
  errors: FieldErrors,
): void {
  const prototype = type.prototype as object;
  for (const [key, value] of Object.entries(object)) {
    const docs = Reflect.getMetadata(PROPERTY, prototype, key) as PropertyDocs | undefined;
    if (!docs || value === undefined) continue;
    const field = parent ? `${parent}.${key}` : key;
    if (value === null) {
      if (!docs.nullable) errors[field] = [`The ${field} field must not be null.`];
      continue;
    }
    const nested = nestedDto(prototype, key, docs);
    if (!nested) continue;
    if (!docs.isArray) {
      if (isPlainObject(value)) checkObject(value, nested, field, errors);
      else errors[field] = [`The ${field} field must be an object.`];
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        const itemField = `${field}.${index}`;
        if (isPlainObject(item)) checkObject(item, nested, itemField, errors);
        else errors[itemField] = [`The ${itemField} field must be an object.`];
      });
    } // else: not an array, which class-validator names itself
  }
}
