import { EnvironmentError, loadEnvironment } from './environment';

describe('loadEnvironment', () => {
  it('applies every documented default', () => {
    const env = loadEnvironment({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './.data',
      RATE_LIMIT_PER_MINUTE: 120,
      SIGNUP_ENABLED: true,
      DEFAULT_PLAN: 'business',
      SUBSCRIPTION_GRACE_DAYS: 7,
      MISSED_CHAT_SECONDS: 300,
      WEBHOOK_ALLOW_INSECURE: false,
      WEBHOOK_TIMEOUT_MS: 10000,
      MAIL_FROM: 'no-reply@localhost',
      LOG_LEVEL: 'info',
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
  });

  it('converts numbers and booleans from their text form', () => {
    const env = loadEnvironment({
      PORT: '8080',
      SIGNUP_ENABLED: 'false',
      WEBHOOK_ALLOW_INSECURE: '1',
    });
    expect(env.PORT).toBe(8080);
    expect(env.SIGNUP_ENABLED).toBe(false);
    expect(env.WEBHOOK_ALLOW_INSECURE).toBe(true);
  });

  it('treats an empty optional URL as unset', () => {
    expect(loadEnvironment({ DATABASE_URL: '', REDIS_URL: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://localhost'],
    ['PUBLIC_URL', 'not a url'],
    ['DEFAULT_PLAN', 'gold'],
    ['LOG_LEVEL', 'loud'],
    ['WEBHOOK_RETRY_SCHEDULE_MS', '1,two'],
    ['MAIL_FROM', 'nobody'],
    ['BODY_LIMIT', 'huge'],
  ])('rejects %s=%s and names it', (name, value) => {
    expect(() => loadEnvironment({ [name]: value })).toThrow(EnvironmentError);
    expect(() => loadEnvironment({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });

  it('names every bad variable at once', () => {
    try {
      loadEnvironment({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a failure');
    } catch (error) {
      expect((error as EnvironmentError).problems.map((p) => p.split('=')[0]).sort()).toEqual([
        'LOG_LEVEL',
        'PORT',
      ]);
    }
  });
});
