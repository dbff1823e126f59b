import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

/** A connection to an address the caller's policy refuses (the reason is for the log). */
export class RefusedAddress extends Error {}

type LookupCallback = (
  error: Error | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` and `net.connect` that checks every address a name resolves to
 * when the connection is made, so no DNS rebinding slips between a check and the request.
 * `refuse` answers why an address may not be reached, or undefined.
 */
export function guardedLookup(refuse: (address: string) => string | undefined) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ): void => {
    const family =
      options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    dnsLookup(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const entry of addresses) {
        const reason = refuse(entry.address);
        if (reason) return callback(new RefusedAddress(reason), '');
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
