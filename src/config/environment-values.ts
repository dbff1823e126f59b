/* How environment texts become values (the Environment schema's transforms) and its patterns. */

export const toBoolean = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const normalized = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
  if (['false', '0', 'no', 'off'].includes(normalized)) return false;
  return value;
};

export const toInteger = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

export const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const KEY_TEXT = '(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)';
export const KEY = new RegExp(`^${KEY_TEXT}$`);
export const KEY_LIST = new RegExp(`^${KEY_TEXT}(\\s*,\\s*${KEY_TEXT})*$`);
const ALLOWED_ENTRY =
  '(?:[0-9a-fA-F:.]+|\\[[0-9a-fA-F:.]+\\](?::\\d+)?|[A-Za-z0-9_.-]+(?::\\d+)?|[0-9a-fA-F:.]+/\\d+)';
export const ALLOWED_HOSTS = new RegExp(
  `^(\\s*${ALLOWED_ENTRY}\\s*(,\\s*${ALLOWED_ENTRY}\\s*)*)?$`,
);
