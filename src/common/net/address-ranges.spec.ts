import { addressCategory, isPublicAddress } from './address-ranges';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('address categories', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['100.100.0.1', 'cgnat'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::7f00:1', 'ipv4-compatible'],
    ['64:ff9b::a00:1', 'nat64'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378::1', 'teredo'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['db.example', 'reserved'],
  ])('%s is %s', (address, category) => {
    expect(addressCategory(address)).toBe(category);
  });

  it.each(['93.184.216.34', '2606:4700:4700::1111'])('%s is public', (address) => {
    expect(addressCategory(address)).toBeUndefined();
  });
});
