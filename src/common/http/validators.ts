import { registerDecorator, type ValidationOptions } from 'class-validator';

export function isTimeZone(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time-zone name such as `Europe/Berlin` (or `UTC`). */
export function IsTimeZone(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be a valid IANA time zone such as Europe/Berlin`,
        ...options,
      },
      validator: { validate: isTimeZone },
    });
}
