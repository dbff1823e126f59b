import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The service's master key (SECRETS_KEY, or the key generated into DATA_DIR) and what is derived
 * from it with HKDF-SHA256: its id (named in every sealed value, so rotation knows which values
 * are stale), the key sealing stored secrets and the widget session signing key. The master key
 * itself never encrypts or signs anything.
 */
export class MasterKey {
  readonly id: string;
  readonly sealing: Buffer;
  readonly widgetSession: Buffer;

  constructor(readonly raw: Buffer) {
    if (raw.length !== 32) throw new Error('a secrets key has 32 bytes');
    this.id = derive(raw, 'support-chat key id', 6).toString('base64url');
    this.sealing = derive(raw, 'support-chat secret box v2', 32);
    this.widgetSession = derive(raw, 'support-chat widget session', 32);
  }
}

const derive = (raw: Buffer, info: string, length: number): Buffer =>
  Buffer.from(hkdfSync('sha256', raw, Buffer.alloc(0), info, length));

/** Values sealed before key ids existed: `v1.<iv>.<tag>.<ciphertext>` under a raw key. */
const LEGACY = 'v1';
const VERSION = 'v2';

/**
 * AES-256-GCM for secrets the service must read back (webhook signing secrets, the site owner's
 * database URL, login codes on their way to the mailer): `v2.<key id>.<iv>.<tag>.<ciphertext>`,
 * base64url parts, sealed under the current key. Values sealed under a previous key (rotation)
 * or before key ids existed (`v1`, under a raw key) still open; a tampered value does not.
 */
export class SecretBox {
  private readonly keys: Map<string, MasterKey>;

  constructor(
    readonly current: MasterKey,
    previous: MasterKey[] = [],
    /** Raw keys `v1` values may have been sealed with (the key once kept in the database). */
    private readonly legacy: Buffer[] = [],
  ) {
    this.keys = new Map([...previous, current].map((key) => [key.id, key]));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.sealing, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, ...[iv, cipher.getAuthTag(), data].map(base64url)].join('.');
  }

  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts[0] === VERSION && parts.length === 5) {
      const key = this.keys.get(parts[1]);
      if (!key) throw new Error(`sealed under an unknown key (${parts[1]})`);
      return decrypt(key.sealing, parts.slice(2));
    }
    if (parts[0] === LEGACY && parts.length === 4) {
      const candidates = [...[...this.keys.values()].map((key) => key.raw), ...this.legacy];
      for (const raw of candidates) {
        try {
          return decrypt(raw, parts.slice(1));
        } catch {
          // the next key
        }
      }
      throw new Error('sealed under an unknown key (v1)');
    }
    throw new Error('not a sealed secret');
  }

  /** Whether the value is sealed under the current key (else `secrets:rotate` re-seals it). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`${VERSION}.${this.current.id}.`);
  }
}

const base64url = (part: Buffer) => part.toString('base64url');

function decrypt(key: Buffer, [iv, tag, data]: string[]): string {
  if (!iv || !tag || data === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** A 32-byte key from SECRETS_KEY: 64 hex characters or base64 of 32 bytes. */
export function parseKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (64 hex or base64)');
  return key;
}
