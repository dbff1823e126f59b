import { randomBytes } from 'node:crypto';
import { issueWidgetSession, verifyWidgetSession } from './widget-session-token';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('widget session tokens', () => {
  const key = randomBytes(32);
  const sessions = {
    issue: (session: Parameters<typeof issueWidgetSession>[1]) => issueWidgetSession(key, session),
    verify: (token: string) => verifyWidgetSession([key], token),
  };
  const session = { visitorId: '7', siteId: '3', organizationId: '2' };

  it('verifies the token it issued', () => {
    expect(sessions.verify(sessions.issue(session))).toMatchObject(session);
  });

  // Seen in a fresh-clone run: a token whose last two characters a test replaced by "xx" was
  // accepted, because the replaced characters decoded to the same signature bytes.
  it('refuses every other spelling of the same signature bytes', () => {
    const token = sessions.issue(session);
    const [head, signature] = token.split('.');
    // A 32-byte signature is 43 characters; the last one carries 4 bits and 2 unused ones.
    const last = ALPHABET.indexOf(signature.at(-1)!);
    const variants = [1, 2, 3].map(
      (bits) => `${head}.${signature.slice(0, -1)}${ALPHABET[(last & ~3) | bits]}`,
    );
    for (const variant of variants) {
      expect(Buffer.from(variant.split('.')[1], 'base64url')).toEqual(
        Buffer.from(signature, 'base64url'),
      );
      expect(sessions.verify(variant)).toBeUndefined();
    }
    expect(sessions.verify(`${token}=`)).toBeUndefined();
    expect(sessions.verify(token)).toMatchObject(session);
  });
});
