import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { guardedLookup, RefusedAddress } from '../../common/net/guarded-lookup';
import {
  allowedByOperator,
  normalizeHost,
  refusal,
  type TargetPolicy,
} from '../../common/net/target-policy';

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * Why the policy refuses a connection to this URL at this address, or undefined: loopback and
 * private addresses only when SSO_ALLOWED_HOSTS names them, and `http` only for such hosts.
 */
export function issuerRefusal(policy: TargetPolicy, url: URL, address: string): string | undefined {
  const target = { host: normalizeHost(url.hostname), port: portOf(url), address };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowedByOperator(policy, target)))
    return `${url.protocol} is only allowed for a host in SSO_ALLOWED_HOSTS`;
  return refusal(policy, target);
}

/**
 * The HTTP options openid-client applies to each of its requests (discovery, keys, token): the
 * address a name resolves to is checked when the connection is made (no window for DNS
 * rebinding between a check and the request); an address literal is checked before.
 */
export function guardedHttpOptions(policy: TargetPolicy, timeoutMs: number) {
  return (url: URL) => {
    const host = normalizeHost(url.hostname);
    if (isIP(host)) {
      const reason = issuerRefusal(policy, url, host);
      if (reason) throw new RefusedAddress(reason);
    }
    const lookup = guardedLookup((address) => issuerRefusal(policy, url, address));
    return { lookup, timeout: timeoutMs };
  };
}

/** Resolves the URL's host now and answers why the policy refuses it, if it does (saving settings). */
export async function checkIssuerUrl(policy: TargetPolicy, url: URL): Promise<string | undefined> {
  const host = normalizeHost(url.hostname);
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : await new Promise<string[]>((resolve, reject) =>
          dnsLookup(host, { all: true }, (error, found) =>
            error ? reject(error) : resolve(found.map((entry) => entry.address)),
          ),
        );
  } catch {
    return 'not found';
  }
  for (const address of addresses) {
    const reason = issuerRefusal(policy, url, address);
    if (reason) return reason;
  }
  return addresses.length === 0 ? 'not found' : undefined;
}
