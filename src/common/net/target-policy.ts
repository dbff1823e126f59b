import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressCategory, inSubnet } from './address-ranges';

/**
 * Which servers a tenant may point an outgoing connection at (docs/decisions.md, "Owner
 * database targets"; the IMAP door uses it too): public addresses only, never the service's own
 * database server, unless the operator allows the target (DATA_LOOKUP_ALLOWED_HOSTS,
 * IMAP_ALLOWED_HOSTS). Pure: the caller resolves names.
 */

/** One DATA_LOOKUP_ALLOWED_HOSTS (or IMAP_ALLOWED_HOSTS) entry: a host (name or IP) with an optional port, or a CIDR. */
export type AllowedTarget =
  { kind: 'host'; host: string; port?: number } | { kind: 'cidr'; network: string; prefix: number };

/** A server the service itself uses: its name as configured, its addresses and port. */
export interface OwnServer {
  host: string;
  port: number;
  addresses: string[];
}

export interface TargetPolicy {
  allowed: AllowedTarget[];
  ownDatabase: OwnServer[];
}

/** Where a connection is about to go: the name in the settings, the address it resolved to. */
export interface Target {
  host: string;
  port: number;
  address: string;
}

/** The entries of DATA_LOOKUP_ALLOWED_HOSTS (or IMAP_ALLOWED_HOSTS); throws naming the first malformed entry. */
export function parseAllowedTargets(value: string | undefined): AllowedTarget[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
      if (cidr) {
        const family = isIP(cidr[1]);
        const prefix = Number(cidr[2]);
        if (family === 0 || prefix > (family === 4 ? 32 : 128)) throw malformed(entry);
        return { kind: 'cidr', network: cidr[1], prefix };
      }
      if (isIP(entry)) return { kind: 'host', host: entry.toLowerCase() };
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      const hostPort = /^([^:]+):(\d+)$/.exec(entry);
      const [host, port] = bracketed
        ? [bracketed[1], bracketed[2]]
        : hostPort
          ? [hostPort[1], hostPort[2]]
          : [entry, undefined];
      if (bracketed && isIP(host) !== 6) throw malformed(entry);
      if (!isIP(host) && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(host)) throw malformed(entry);
      const portNumber = port === undefined ? undefined : Number(port);
      if (portNumber !== undefined && (portNumber < 1 || portNumber > 65535)) {
        throw malformed(entry);
      }
      return { kind: 'host', host: normalizeHost(host), port: portNumber };
    });
}

const malformed = (entry: string) => new Error(`"${entry}" is not a host, host:port or CIDR entry`);

export const normalizeHost = (host: string): string =>
  host
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');

function matches(entry: AllowedTarget, target: Target): boolean {
  if (entry.kind === 'cidr') return inSubnet(target.address, entry.network, entry.prefix);
  if (entry.port !== undefined && entry.port !== target.port) return false;
  return entry.host === normalizeHost(target.host) || entry.host === target.address;
}

/** Whether an operator's entry names the target (then it may also be reached without TLS). */
export function allowedByOperator(policy: TargetPolicy, target: Target): boolean {
  return policy.allowed.some((entry) => matches(entry, target));
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain']);

/** Whether the target is the service's own database server (any loopback address if it is local). */
function isOwnServer(own: OwnServer, target: Target): boolean {
  if (own.port !== target.port) return false;
  if (normalizeHost(own.host) === normalizeHost(target.host)) return true;
  if (own.addresses.includes(target.address)) return true;
  const ownIsLocal =
    LOOPBACK_NAMES.has(normalizeHost(own.host)) ||
    own.addresses.some((address) => addressCategory(address) === 'loopback');
  return ownIsLocal && addressCategory(target.address) === 'loopback';
}

/**
 * Why the policy refuses the target (for the log, never for the tenant), or undefined when it may
 * be connected to. Any matching allowance lifts the address-range refusal; the service's own
 * database server is only reachable through an entry naming its port (`host:port`), so allowing
 * a whole range (or a name) for local owner databases does not open the service's own one.
 */
export function refusal(policy: TargetPolicy, target: Target): string | undefined {
  const allowances = policy.allowed.filter((entry) => matches(entry, target));
  if (policy.ownDatabase.some((own) => isOwnServer(own, target))) {
    const named = allowances.some((entry) => entry.kind === 'host' && entry.port !== undefined);
    return named ? undefined : `${target.address}:${target.port} is the service's own database`;
  }
  const category = addressCategory(target.address);
  if (category !== undefined && allowances.length === 0) {
    return `${target.host} resolves to a ${category} address (${target.address})`;
  }
  return undefined;
}

/** The service's own database server, from its connection URL (addresses resolved later). */
export function ownDatabaseServer(databaseUrl: string): OwnServer {
  const own = new URL(databaseUrl);
  return { host: normalizeHost(own.hostname), port: Number(own.port || 5432), addresses: [] };
}

/**
 * Resolves the addresses of the policy's own servers, so a name for one is refused too; a name
 * that does not resolve keeps none (the caller is told, to log it).
 */
export async function resolveOwnServers(
  policy: TargetPolicy,
  onFailure: (host: string, error: unknown) => void = () => undefined,
): Promise<void> {
  await Promise.all(
    policy.ownDatabase.map(async (server) => {
      try {
        server.addresses = (await lookup(server.host, { all: true })).map((a) => a.address);
      } catch (error) {
        onFailure(server.host, error);
      }
    }),
  );
}
