import { parseConnectionUrl } from './connection-target';
import { OwnerDatabaseError } from './owner-database';
import { parseAllowedTargets, refusal, type TargetPolicy } from '../../../common/net/target-policy';

const own = { host: 'postgres', port: 5432, addresses: ['172.18.0.2'] };
const policy = (allowed = '', ownDatabase = [own]): TargetPolicy => ({
  allowed: parseAllowedTargets(allowed),
  ownDatabase,
});
const target = (host: string, address: string, port = 5432) => ({ host, port, address });

describe('owner database target policy', () => {
  it('lets public addresses through', () => {
    expect(refusal(policy(), target('db.example', '93.184.216.34'))).toBeUndefined();
    expect(refusal(policy(), target('db.example', '2606:4700::1111'))).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['192.168.1.5', 'private'],
    ['100.64.1.1', 'cgnat'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique-local'],
    ['::ffff:93.184.216.34', 'ipv4-mapped'],
    ['::5db8:d822', 'ipv4-compatible'],
    ['64:ff9b::a00:1', 'nat64'],
    ['2002:a00:1::1', '6to4'],
    ['0.0.0.0', 'unspecified'],
  ])('refuses %s (%s)', (address, category) => {
    expect(refusal(policy(), target('db.example', address))).toContain(category);
  });

  it("refuses the service's own database by name, by address and (when local) any loopback", () => {
    expect(refusal(policy(), target('postgres', '172.18.0.2'))).toContain('own database');
    expect(refusal(policy(), target('other-name', '172.18.0.2'))).toContain('own database');
    const local = [{ host: '127.0.0.1', port: 5544, addresses: ['127.0.0.1'] }];
    expect(refusal(policy('127.0.0.0/8', local), target('localhost', '127.0.0.2', 5544))).toContain(
      'own database',
    );
    // Another port of the same host is not the own database (but still a private address).
    expect(refusal(policy('', local), target('localhost', '127.0.0.1', 5545))).toContain(
      'loopback',
    );
  });

  it('lifts the range refusal for a matching host, host:port or CIDR entry', () => {
    expect(refusal(policy('10.0.0.0/8'), target('db.internal', '10.1.2.3'))).toBeUndefined();
    expect(refusal(policy('db.internal'), target('DB.Internal', '10.1.2.3'))).toBeUndefined();
    expect(refusal(policy('db.internal:6432'), target('db.internal', '10.1.2.3'))).toBeDefined();
    expect(
      refusal(policy('db.internal:6432'), target('db.internal', '10.1.2.3', 6432)),
    ).toBeUndefined();
    expect(refusal(policy('10.1.2.3'), target('anything', '10.1.2.3'))).toBeUndefined();
    expect(refusal(policy('[fd00::1]:5432'), target('x', 'fd00::1'))).toBeUndefined();
    // A name entry does not let another name resolving to a private address through.
    expect(refusal(policy('db.internal'), target('evil.example', '10.1.2.3'))).toBeDefined();
  });

  it("opens the service's own database only to an entry naming its port", () => {
    expect(refusal(policy('172.16.0.0/12'), target('postgres', '172.18.0.2'))).toBeDefined();
    expect(refusal(policy('postgres'), target('postgres', '172.18.0.2'))).toBeDefined();
    expect(refusal(policy('postgres:5432'), target('postgres', '172.18.0.2'))).toBeUndefined();
  });

  it('reads DATA_LOOKUP_ALLOWED_HOSTS and refuses malformed entries', () => {
    expect(parseAllowedTargets(' db.internal , 10.0.0.0/8,[::1]:5432, ::1,db:3306 ')).toEqual([
      { kind: 'host', host: 'db.internal', port: undefined },
      { kind: 'cidr', network: '10.0.0.0', prefix: 8 },
      { kind: 'host', host: '::1', port: 5432 },
      { kind: 'host', host: '::1' },
      { kind: 'host', host: 'db', port: 3306 },
    ]);
    expect(parseAllowedTargets('')).toEqual([]);
    for (const bad of ['10.0.0.0/33', 'db:99999', 'a b', '[db]:1', 'x/8']) {
      expect(() => parseAllowedTargets(bad)).toThrow();
    }
  });
});

describe('owner database connection URLs', () => {
  const refusedReason = (driver: 'postgres' | 'mysql', url: string) => {
    try {
      parseConnectionUrl(driver, url);
    } catch (error) {
      expect(error).toBeInstanceOf(OwnerDatabaseError);
      expect((error as OwnerDatabaseError).kind).toBe('refused');
      return (error as OwnerDatabaseError).reason;
    }
    throw new Error(`${url} was accepted`);
  };

  it('builds the driver settings from the parsed fields', () => {
    expect(parseConnectionUrl('postgres', 'postgres://r%40x:p%3Aw@DB.example:6432/shop')).toEqual({
      host: 'db.example',
      port: 6432,
      user: 'r@x',
      password: 'p:w',
      database: 'shop',
      tls: false,
    });
    expect(
      parseConnectionUrl('postgres', 'postgresql://r@[2001:db8::1]/s?sslmode=verify-full'),
    ).toMatchObject({ host: '2001:db8::1', port: 5432, tls: 'verify' });
    expect(parseConnectionUrl('mysql', 'mysql://r:p@db.example/s?ssl=true')).toMatchObject({
      port: 3306,
      tls: 'verify',
    });
    expect(
      parseConnectionUrl('mysql', 'mysql://r:p@db.example/s?ssl={"rejectUnauthorized":false}'),
    ).toMatchObject({ tls: 'encrypt' });
  });

  it.each([
    ['postgres', 'postgres://r:p@%2Fvar%2Frun%2Fpostgresql/shop', 'Unix socket'],
    ['postgres', 'postgres:///shop?host=/var/run/postgresql', 'no host'],
    ['postgres', 'postgres://r:p@db.example/shop?host=/tmp', 'host'],
    ['postgres', 'postgres://r:p@db.example/shop?sslcert=/etc/passwd', 'sslcert'],
    ['postgres', 'postgres://r:p@db.example/shop?sslkey=/k', 'sslkey'],
    ['postgres', 'postgres://r:p@db.example/shop?sslrootcert=/k', 'sslrootcert'],
    ['postgres', 'postgres://r:p@db.example/shop?passfile=/k', 'passfile'],
    ['postgres', 'postgres://r:p@db.example/shop?options=-c%20x', 'options'],
    ['postgres', 'postgres://r:p@db.example/shop?sslmode=bogus', 'sslmode'],
    ['mysql', 'mysql://r:p@db.example/shop?socketPath=/run/mysqld.sock', 'socketPath'],
    ['mysql', 'mysql://r:p@db.example/shop?ssl={"ca":"/etc/passwd"}', 'ssl'],
    ['mysql', 'mysql://r:p@db.example/shop?localAddress=10.0.0.1', 'localAddress'],
  ] as const)('refuses %s %s', (driver, url, reason) => {
    expect(refusedReason(driver, url)).toContain(reason);
  });
});
