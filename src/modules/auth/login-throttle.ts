import { Injectable } from '@nestjs/common';
import { sha256 } from '../../common/crypto/secrets';
import { tooManyAttempts } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import { type LoginFailures, LoginFailuresRepository } from './login-failures.repository';

/** The wait after the first failure past the free ones; it doubles with each further failure. */
export const FIRST_DELAY_MS = 2_000;
const MAX_DELAY_MS = 15 * 60_000;
/** Failures are forgotten an hour after the last one. */
const FORGET_MS = 60 * 60_000;

/** How long after its last failure a key must wait, for its failures and those it has free. */
export function delayAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - free));
}

/**
 * Agent login hardening (DESIGN section 12): failures, not attempts, are counted per address, per
 * client address, and per client at an address. A client that has not failed at an address is
 * never made to wait for that address, so an owner still logs in while their address is hammered
 * from elsewhere; one that has failed there waits a delay that doubles with its failures and with
 * the address's (LOGIN_FREE_FAILURES free), and a client address failing across many addresses
 * (spraying) waits past LOGIN_FREE_FAILURES_PER_CLIENT, kept higher for offices behind one
 * address. Never a hard lockout: once the wait is over, the right password logs in.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly failures: LoginFailuresRepository,
    private readonly config: AppConfig,
  ) {}

  /** Throws the 429 (with Retry-After) while this client must still wait. */
  async check(email: string, ip: string): Promise<void> {
    const keys = keysOf(email, ip);
    const rows = await this.failures.recent(Object.values(keys), FORGET_MS);
    const byKey = new Map(rows.map((row) => [row.key, row]));
    const free = this.config.env.LOGIN_FREE_FAILURES;
    const scopes: [LoginFailures | undefined, number][] = [
      [byKey.get(keys.pair), free],
      [byKey.get(keys.client), this.config.env.LOGIN_FREE_FAILURES_PER_CLIENT],
    ];
    // The address's own failures count only against clients that have failed at it.
    if (byKey.has(keys.pair)) scopes.push([byKey.get(keys.address), free]);
    const now = Date.now();
    let wait = 0;
    for (const [row, allowed] of scopes) {
      if (!row) continue;
      const until = new Date(row.last_failed_at).getTime() + delayAfter(row.failures, allowed);
      wait = Math.max(wait, until - now);
    }
    if (wait > 0) throw tooManyAttempts(wait);
  }

  fail(email: string, ip: string): Promise<void> {
    return this.failures.record(Object.values(keysOf(email, ip)), FORGET_MS);
  }
}

function keysOf(email: string, ip: string) {
  const address = sha256(email.trim().toLowerCase()).toString('hex');
  return { address: `address:${address}`, client: `client:${ip}`, pair: `pair:${address}:${ip}` };
}
