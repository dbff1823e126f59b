import { BoundedMap } from '../../common/bounded-map';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from '../../common/net/address-ranges';

export interface SendOptions {
  timeoutMs: number;
  /** WEBHOOK_ALLOW_INSECURE: `http` and private or loopback targets allowed. */
  allowInsecure: boolean;
}

export interface SendResult {
  statusCode?: number;
  durationMs: number;
  /** The first kilobyte of the response body. */
  excerpt?: string;
  error?: string;
  retryAfter?: string;
}

const EXCERPT_BYTES = 1024;
/** Keep-alive agents kept at most, one per origin (the least recently used one is forgotten). */
const MAX_AGENTS = 1000;
/** An idle kept-alive connection is closed after this long. */
const IDLE_SOCKET_MS = 30_000;
/**
 * Idle connections kept per origin: enough for sixteen endpoints on one origin, each with its
 * PER_ENDPOINT_CONCURRENCY attempts at once, so a busy origin's connections are not closed and
 * opened again between attempts. Several endpoints often share one origin (an integration
 * platform's hooks, or the benchmark's receiver); with 8 kept, a burst to four endpoints on one
 * origin opened a new connection for every other attempt (bench/README.md).
 */
const MAX_FREE_SOCKETS = 64;

export class RefusedTarget extends Error {}

/**
 * Checks the address a name resolves to at connection time, so what is checked is what is
 * connected to (no window for DNS rebinding between a check and the request).
 */
function guardedLookup(allowInsecure: boolean) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = addresses.find((entry) => !isPublicAddress(entry.address));
      if (refused && !allowInsecure) {
        return callback(
          new RefusedTarget(`${hostname} resolves to a private address (${refused.address})`),
          '',
        );
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const agents = new BoundedMap<string, http.Agent>(MAX_AGENTS);

/**
 * A keep-alive agent per origin: consecutive deliveries to an endpoint reuse its connections
 * instead of a TCP (and TLS) handshake each. The address is still checked by `guardedLookup` each
 * time a connection is opened, which is the only time one is chosen.
 */
function agentFor(target: URL, allowInsecure: boolean): http.Agent {
  const key = `${target.origin} ${allowInsecure}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxFreeSockets: MAX_FREE_SOCKETS, timeout: IDLE_SOCKET_MS };
    agent = target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }
  // The newest last; a forgotten agent's idle connections close on their own after IDLE_SOCKET_MS.
  agents.set(key, agent);
  return agent;
}

/**
 * One POST of a delivery: no redirects followed (a 3xx is a failure), one deadline for the whole
 * exchange, private targets refused unless insecure mode. Never throws: failures are results.
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = Date.now();
  const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...result,
    durationMs: Date.now() - started,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done({ error: 'invalid URL' }));
  }
  if (target.protocol !== 'https:' && !(options.allowInsecure && target.protocol === 'http:')) {
    return Promise.resolve(done({ error: `refused: ${target.protocol} is not allowed` }));
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host) && !options.allowInsecure) {
    return Promise.resolve(done({ error: `refused: ${host} is a private address` }));
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(options.allowInsecure) as never,
        agent: agentFor(target, options.allowInsecure),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) response.destroy();
        });
        const end = () =>
          finish({
            statusCode: response.statusCode,
            excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
            retryAfter: header(response.headers['retry-after']),
          });
        response.on('end', end);
        response.on('close', end);
        response.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (error) =>
      finish({
        error:
          error instanceof RefusedTarget ? `refused: ${error.message}` : error.message || 'error',
      }),
    );
    request.end(body);
  });
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
