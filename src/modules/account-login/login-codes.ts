import { randomBytes, randomInt } from 'node:crypto';
import { sameBytes, sha256 } from '../../common/crypto/secrets';

/** One-time login codes (DESIGN section 7). */
export const CODE_LIFETIME_MINUTES = 10;
/** Wrong tries that burn a code. */
export const MAX_WRONG_TRIES = 5;
/** Codes one visitor may ask for in an hour. */
export const CODES_PER_VISITOR_HOUR = 5;
/**
 * Codes one account may be mailed in an hour over all visitors: visitors are cheap to make, so
 * without this an attacker could flood an inbox or spread guesses over many visitors. Requests
 * beyond it are answered as usual but mail nothing.
 */
export const CODES_PER_ACCOUNT_HOUR = 10;

/**
 * Wrong codes one account takes in a day over all its codes and visitors. Past it, the account's
 * codes match nothing and no new one is mailed, answered exactly as before (so the cap tells an
 * attacker nothing): with ten codes an hour and five tries each, guessing was otherwise 1 200
 * tries a day.
 */
export const WRONG_CODES_PER_ACCOUNT_DAY = 20;

/**
 * An identifier as it is counted: case and spaces do not make a new one, and a phone number is
 * its digits (and a leading +) whatever punctuation it is typed with.
 */
export function normalizeIdentifier(identifier: string): string {
  const compact = identifier.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\+?[\d().\-/]+$/.test(compact) && /\d/.test(compact)) {
    return (compact.startsWith('+') ? '+' : '') + compact.replace(/\D/g, '');
  }
  return compact;
}

/** Six digits, uniformly drawn, leading zeros kept. */
export const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const newSalt = (): Buffer => randomBytes(16);

export const hashCode = (salt: Buffer, code: string): Buffer =>
  sha256(`${salt.toString('hex')}:${code}`);

/** Constant-time comparison of a typed code with a stored hash. */
export const codeMatches = (salt: Buffer, hash: Buffer, typed: string): boolean =>
  sameBytes(hashCode(salt, typed.trim()), hash);
