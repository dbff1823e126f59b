import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import net, { isIP } from 'node:net';
import type { Driver } from '../lookup-settings';
import { OwnerDatabaseError } from './owner-database';
import { normalizeHost, refusal, type TargetPolicy } from '../../../common/net/target-policy';

/**
 * What a driver is given to connect with, built from the parsed URL (never the URL itself, so
 * no driver option, file path or socket a URL can name reaches the driver).
 */
export interface ConnectionTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database?: string;
  /** false: plain; `verify`: TLS checking the certificate against `host`; `encrypt`: TLS only. */
  tls: false | 'verify' | 'encrypt';
}

const DEFAULT_PORTS: Record<Driver, number> = { postgres: 5432, mysql: 3306 };

/** The one query parameter each driver accepts, and its values. */
const TLS_PARAMETERS: Record<
  Driver,
  { name: string; values: Record<string, ConnectionTarget['tls']> }
> = {
  postgres: {
    name: 'sslmode',
    values: {
      disable: false,
      prefer: 'encrypt',
      require: 'encrypt',
      'no-verify': 'encrypt',
      'verify-ca': 'verify',
      'verify-full': 'verify',
    },
  },
  mysql: {
    name: 'ssl',
    values: {
      false: false,
      true: 'verify',
      '{"rejectUnauthorized":true}': 'verify',
      '{"rejectUnauthorized":false}': 'encrypt',
    },
  },
};

const refused = (reason: string) => new OwnerDatabaseError('refused', reason);

/**
 * The connection settings of an owner database URL (`postgres://user:password@host:port/db`,
 * `mysql://...`). Refused (`refused` failure, checked before anything is connected to): no host,
 * a Unix socket path as host, or any query parameter but the driver's TLS switch (`host=`,
 * `sslcert=`, `passfile=`... name sockets or files on the service's machine).
 */
export function parseConnectionUrl(driver: Driver, url: string): ConnectionTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused('not a URL');
  }
  const host = normalizeHost(decodeURIComponent(parsed.hostname));
  if (host === '') throw refused('no host');
  if (host.includes('/') || host.includes('\\') || host.startsWith('@')) {
    throw refused('a Unix socket');
  }
  if (!isIP(host) && !/^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(host)) {
    throw refused('not a host name');
  }
  const tlsParameter = TLS_PARAMETERS[driver];
  let tls: ConnectionTarget['tls'] = false;
  for (const [name, value] of parsed.searchParams) {
    if (name !== tlsParameter.name) throw refused(`the URL parameter ${name}`);
    const mode = Object.entries(tlsParameter.values).find(
      ([accepted]) => accepted === value.replace(/\s/g, ''),
    );
    if (!mode) throw refused(`the ${name} value`);
    tls = mode[1];
  }
  return {
    host,
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORTS[driver],
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
    tls,
  };
}

type LookupCallback = (
  error: Error | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A TCP socket whose `connect(port, host)` checks where it goes against the policy at connect
 * time, inside the socket's own name lookup: what is checked is what is connected to (no window
 * for DNS rebinding). The drivers keep `host` for TLS (server name, certificate check). A refusal
 * destroys the socket with a `refused` OwnerDatabaseError before any packet is sent.
 */
export function guardedSocket(policy: () => TargetPolicy): net.Socket {
  const socket = new net.Socket();
  const connect = socket.connect.bind(socket) as (options: net.TcpSocketConnectOpts) => net.Socket;
  const refuse = (reason: string) => {
    process.nextTick(() => socket.destroy(refused(reason)));
    return socket;
  };
  socket.connect = ((port: number, host: string) => {
    if (typeof port !== 'number' || typeof host !== 'string') return refuse('not a TCP target');
    const plainHost = normalizeHost(host);
    if (isIP(plainHost)) {
      const reason = refusal(policy(), { host: plainHost, port, address: plainHost });
      return reason ? refuse(reason) : connect({ port, host: plainHost });
    }
    const lookup = (
      hostname: string,
      options: { family?: number; all?: boolean },
      callback: LookupCallback,
    ) => {
      dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
        if (error) return callback(error, '');
        for (const entry of addresses) {
          const reason = refusal(policy(), { host: plainHost, port, address: entry.address });
          if (reason) return callback(refused(reason), '');
        }
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      });
    };
    return connect({ port, host: plainHost, lookup: lookup as never });
  }) as typeof socket.connect;
  return socket;
}
