import { randomBytes } from 'node:crypto';
import { parseKey, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals and opens, differently each time', () => {
    const a = box.seal('whsec_abc');
    const b = box.seal('whsec_abc');
    expect(a).not.toBe(b);
    expect(a).not.toContain('whsec_abc');
    expect(box.open(a)).toBe('whsec_abc');
  });

  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('postgres://reader:pw@db/shop');
    const parts = sealed.split('.');
    parts[3] = Buffer.from(
      'x' + Buffer.from(parts[3], 'base64url').toString('latin1'),
      'latin1',
    ).toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('reads keys as hex or base64 of 32 bytes', () => {
    const key = randomBytes(32);
    expect(parseKey(key.toString('hex'))).toEqual(key);
    expect(parseKey(key.toString('base64'))).toEqual(key);
    expect(() => parseKey('short')).toThrow();
  });
});
