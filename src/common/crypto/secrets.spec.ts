import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from './secrets';

describe('password hashes', () => {
  it('carry their cost, verify at it, and ask for a rehash only below the current one', async () => {
    const old = await hashPassword('correct horse', 1024);
    expect(old).toMatch(/^scrypt\$1024\$8\$1\$/);
    await expect(verifyPassword('correct horse', old)).resolves.toBe(true);
    await expect(verifyPassword('wrong horse', old)).resolves.toBe(false);
    expect(needsRehash(old, 1024)).toBe(false);
    expect(needsRehash(old, 131072)).toBe(true);
    expect(needsRehash('bcrypt$whatever', 1024)).toBe(true);
  });

  it('verify a 2^17 hash (OWASP minimum) within the memory they are given', async () => {
    const strong = await hashPassword('correct horse', 131072);
    await expect(verifyPassword('correct horse', strong)).resolves.toBe(true);
  });

  it('make the dummy hash at the current cost, so an unknown account costs the same', async () => {
    expect(dummyPasswordHash(16384)).toMatch(/^scrypt\$16384\$8\$1\$/);
    await expect(verifyPassword('anything', dummyPasswordHash(16384))).resolves.toBe(false);
  });
});
