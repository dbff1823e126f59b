import { EnvironmentError, loadEnvironment } from './load-environment';

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

  it('never shows a bad value (a DATABASE_URL carries a password)', () => {
    try {
      loadEnvironment({ DATABASE_URL: 'postgres://app:hunter2-secret@db host/app' });
      throw new Error('expected a failure');
    } catch (error) {
      expect((error as EnvironmentError).message).toContain('DATABASE_URL=');
      expect((error as EnvironmentError).message).not.toContain('hunter2');
    }
  });

  it('requires SECRETS_KEY in production', () => {
    expect(() => loadEnvironment({ NODE_ENV: 'production' })).toThrow(/SECRETS_KEY/);
    const key = 'ab'.repeat(32);
    expect(loadEnvironment({ NODE_ENV: 'production', SECRETS_KEY: key }).SECRETS_KEY).toBe(key);
  });

  it('reads DATA_LOOKUP_ALLOWED_HOSTS entries and refuses anything else', () => {
    const value = 'db.internal, 10.0.0.0/8,[::1]:5432,::1,postgres:5432';
    expect(loadEnvironment({ DATA_LOOKUP_ALLOWED_HOSTS: value }).DATA_LOOKUP_ALLOWED_HOSTS).toBe(
      value,
    );
    expect(() => loadEnvironment({ DATA_LOOKUP_ALLOWED_HOSTS: 'a b;c' })).toThrow(
      /DATA_LOOKUP_ALLOWED_HOSTS=/,
    );
  });
});
