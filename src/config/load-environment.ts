import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ENVIRONMENT_KEYS, Environment } from './environment';

export class EnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'EnvironmentError';
  }
}

/** Parses and validates the process environment; throws naming every bad variable. */
export function loadEnvironment(source: Record<string, unknown> = process.env): Environment {
  const raw: Record<string, unknown> = {};
  for (const key of ENVIRONMENT_KEYS) {
    const value = source[key];
    if (value !== undefined) raw[key] = value;
  }
  const env = plainToInstance(Environment, raw, { exposeDefaultValues: true });
  const errors = validateSync(env, { whitelist: false });
  if (errors.length > 0) {
    throw new EnvironmentError(
      errors.map((error) => {
        const texts = Object.values(error.constraints ?? {}).map((text) =>
          text.replace(error.property, '').trim(),
        );
        // The value is never shown: it may hold a password (DATABASE_URL) or a key.
        return `${error.property}=(value not shown): ${texts.join('; ')}`;
      }),
    );
  }
  if (env.NODE_ENV === 'production' && !env.SECRETS_KEY) {
    throw new EnvironmentError([
      'SECRETS_KEY=(unset): is required when NODE_ENV=production (32 bytes, hex or base64)',
    ]);
  }
  return env;
}
