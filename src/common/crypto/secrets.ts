import { hash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

/** `length` characters drawn uniformly from [0-9A-Za-z] (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(62)];
  return out;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** One-shot `crypto.hash` (no Hash object per call): it runs on every API request. */
export function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}

export function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * scrypt is memory-hard (128 * N * r bytes) and ships with Node. New hashes use the operator's N
 * (OWASP's minimum, 2^17 with r=8: 128 MiB, by default); older hashes stay verifiable, as each one
 * carries its own parameters, and are rehashed at the next login (`needsRehash`).
 */
const SCRYPT = { r: 8, p: 1, keylen: 64 };

/** Room for scrypt's working memory (it refuses to run past `maxmem`). */
const maxmem = (n: number, r: number) => 128 * n * r + 32 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`, parameters kept so they can be raised later. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, {
    N: cost,
    r: SCRYPT.r,
    p: SCRYPT.p,
    maxmem: maxmem(cost, SCRYPT.r),
  });
  return [
    'scrypt',
    cost,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64'),
    hash.toString('base64'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(Number(n), Number(r)),
  });
  return sameBytes(actual, expected);
}

/** Whether a stored hash is weaker than what `hashPassword(_, cost)` makes now. */
export function needsRehash(stored: string, cost: number): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) < cost || Number(r) < SCRYPT.r || Number(p) < SCRYPT.p;
}

/**
 * A hash to compare against when the account does not exist, at the current cost, so timing
 * tells nothing.
 */
export function dummyPasswordHash(cost: number): string {
  return (
    `scrypt$${cost}$${SCRYPT.r}$${SCRYPT.p}$AAAAAAAAAAAAAAAAAAAAAA==$` +
    Buffer.alloc(SCRYPT.keylen).toString('base64')
  );
}
