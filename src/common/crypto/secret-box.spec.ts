import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MasterKey, parseKey, SecretBox } from './secret-box';
import { KEY_FILE, loadMasterKeys } from './secrets-key';

/** A value as the release before key ids sealed it: `v1.<iv>.<tag>.<data>` under a raw key. */
function sealV1(raw: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', raw, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('SecretBox', () => {
  const key = new MasterKey(randomBytes(32));
  const box = new SecretBox(key);

  it('seals and opens, differently each time, naming the key', () => {
    const a = box.seal('whsec_abc');
    const b = box.seal('whsec_abc');
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec_abc');
    expect(a.startsWith(`v2.${key.id}.`)).toBe(true);
    expect(box.open(a)).toBe('whsec_abc');
    expect(box.isCurrent(a)).toBe(true);
  });

  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('postgres://reader:pw@db/shop');
    const parts = sealed.split('.');
    parts[4] = Buffer.from(
      'x' + Buffer.from(parts[4], 'base64url').toString('latin1'),
      'latin1',
    ).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(new MasterKey(randomBytes(32))).open(sealed)).toThrow();
  });

  it('opens values of a previous key and of the legacy format, and says they are stale', () => {
    const old = new MasterKey(randomBytes(32));
    const legacy = randomBytes(32);
    const rotated = new SecretBox(key, [old], [legacy]);
    const underOld = new SecretBox(old).seal('old secret');
    expect(rotated.open(underOld)).toBe('old secret');
    expect(rotated.isCurrent(underOld)).toBe(false);
    expect(rotated.open(sealV1(legacy, 'from the database key'))).toBe('from the database key');
    expect(rotated.open(sealV1(key.raw, 'under SECRETS_KEY'))).toBe('under SECRETS_KEY');
    expect(() => box.open(underOld)).toThrow(/unknown key/);
  });

  it('derives distinct keys, never the master key itself', () => {
    expect(key.sealing.equals(key.raw)).toBe(false);
    expect(key.widgetSession.equals(key.sealing)).toBe(false);
    expect(new MasterKey(key.raw).id).toBe(key.id);
  });

  it('reads keys as hex or base64 of 32 bytes', () => {
    const raw = randomBytes(32);
    expect(parseKey(raw.toString('hex'))).toEqual(raw);
    expect(parseKey(raw.toString('base64'))).toEqual(raw);
    expect(() => parseKey('short')).toThrow();
  });
});

describe('master keys', () => {
  it('generates a key into DATA_DIR once (mode 0600) and reads it afterwards', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'scs-keys-')), 'data');
    const first = loadMasterKeys({}, dir);
    const file = path.join(dir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.current.raw.toString('hex'));
    expect(loadMasterKeys({}, dir).current.id).toBe(first.current.id);
  });

  it('takes SECRETS_KEY and SECRETS_KEY_PREVIOUS from the environment', () => {
    const current = randomBytes(32).toString('hex');
    const previous = randomBytes(32).toString('base64');
    const keys = loadMasterKeys(
      { SECRETS_KEY: current, SECRETS_KEY_PREVIOUS: `${previous}, ${current}` },
      '/nonexistent',
    );
    expect(keys.current.raw.toString('hex')).toBe(current);
    expect(keys.previous.map((k) => k.raw.toString('base64'))).toEqual([previous]);
  });
});
