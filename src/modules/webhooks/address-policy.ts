import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_INSECURE (DESIGN section 6): loopback,
 * private, shared, link-local (cloud metadata lives there), multicast, reserved and unspecified
 * ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as IPv4).
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Whether `address` (an IP literal) is a public unicast address a webhook may be sent to. */
export function isPublicAddress(address: string): boolean {
  const mapped = MAPPED.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
