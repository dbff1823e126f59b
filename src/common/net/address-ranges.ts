import { BlockList, isIP } from 'node:net';

/**
 * Why an IP address is not a public unicast address, shared by every outgoing connection a tenant
 * chooses the target of (webhooks, data lookup). `undefined` from `addressCategory`: public.
 */
export type AddressCategory =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'reserved'
  | 'ipv4-mapped'
  | 'ipv4-compatible'
  | 'nat64'
  | '6to4'
  | 'teredo';

type Range = readonly [network: string, prefix: number, category: AddressCategory];

const IPV4: Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

// Checked in this order: the more specific ranges first (`::1` before `::/96`).
const IPV6: Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::ffff:0:0', 96, 'ipv4-mapped'],
  ['::', 96, 'ipv4-compatible'],
  ['64:ff9b::', 96, 'nat64'],
  ['64:ff9b:1::', 48, 'nat64'],
  ['100::', 64, 'reserved'],
  ['2001::', 32, 'teredo'],
  ['2001:db8::', 32, 'reserved'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

const lists = (ranges: Range[], family: 'ipv4' | 'ipv6') =>
  ranges.map(([network, prefix, category]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, category, family };
  });
const V4 = lists(IPV4, 'ipv4');
const V6 = lists(IPV6, 'ipv6');

/** The category of a non-public address; undefined for a public unicast one; `reserved` for a non-IP. */
export function addressCategory(address: string): AddressCategory | undefined {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  const ranges = family === 4 ? V4 : V6;
  return ranges.find(({ list, family: name }) => list.check(address, name))?.category;
}

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * Whether `address` (an IP literal) is a public unicast address a webhook may be sent to
 * (DESIGN section 6). An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  const mapped = MAPPED.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  return addressCategory(address) === undefined;
}

/** Whether `address` falls in `network/prefix` (both IP literals of one family). */
export function inSubnet(address: string, network: string, prefix: number): boolean {
  const family = isIP(network) === 4 ? 'ipv4' : 'ipv6';
  if ((isIP(address) === 4 ? 'ipv4' : 'ipv6') !== family || isIP(address) === 0) return false;
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list.check(address, family);
}
