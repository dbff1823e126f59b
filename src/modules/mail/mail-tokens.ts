import { createHash, randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A new mail token: 160 random bits as 32 lower-case base32 characters, so it survives a mail
 * system that lower-cases the local part of `reply+<token>@...`.
 */
export function newMailToken(): string {
  const bytes = randomBytes(20);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** What is stored of a token: its SHA-256 (the token itself is only in the mail). */
export function hashMailToken(token: string): Buffer {
  return createHash('sha256').update(token.toLowerCase()).digest();
}

export const MAIL_TOKEN = /^[a-z2-7]{32}$/;

/** The token of a `reply+<token>@<domain>` address, when the domain is ours. */
export function replyTokenOf(address: string, domain: string): string | undefined {
  const match = /^reply\+([a-z2-7]{32})@(.+)$/i.exec(address.trim());
  if (!match || match[2].toLowerCase() !== domain.toLowerCase()) return undefined;
  return match[1].toLowerCase();
}
