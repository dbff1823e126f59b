import { Inject, Injectable } from '@nestjs/common';
import { lazyModule } from '../../common/lazy-module';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { randomToken, sha256, verifyPassword } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AgentsService } from '../agents/agents.service';
import { AuditLogService } from '../audit/audit-log.service';
import { AuthService } from './auth.service';
import { TwoFactorRepository } from './two-factor.repository';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
const otplib = lazyModule(() => require('otplib') as typeof import('otplib'));

/** How long the step after the password may take. */
export const CHALLENGE_SECONDS = 300;
/** Wrong codes one challenge takes before it is spent (the password must be given again). */
export const CHALLENGE_ATTEMPTS = 5;
/** Codes tried per login (every challenge and setup step together) per 15 minutes. */
export const CODES_PER_LOGIN = 10;
const WINDOW_MS = 15 * 60_000;
const RECOVERY_CODES = 10;
const ISSUER = 'Support Chat';

function newRecoveryCode(): string {
  // 10 characters of base32 (50 bits), shown as two groups of five.
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = Buffer.from(randomToken(10), 'base64url');
  const chars = [...bytes].map((byte) => alphabet[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}`;
}

/** A recovery code as typed: any case, with or without the dash and spaces. */
function recoveryHash(code: string): Buffer {
  return sha256(code.toLowerCase().replace(/[^a-z2-7]/g, ''));
}

/**
 * TOTP two-factor authentication (issue 28): set up with a sealed secret, confirmed with a code,
 * 10 single-use recovery codes stored hashed, and the login challenge after the password. A code's
 * time step is remembered so the same code never works twice.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: TwoFactorRepository,
    private readonly agents: AgentsService,
    private readonly auth: AuthService,
    private readonly secrets: SecretBoxService,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
    private readonly audit: AuditLogService,
  ) {}

  private limitCodes(loginId: string): Promise<void> {
    return rateLimited(this.limits, `two-factor:login:${loginId}`, CODES_PER_LOGIN, WINDOW_MS);
  }

  /** The step a code matches (one step of drift either way), after `lastStep`; else undefined. */
  private async match(
    sealed: string,
    code: string,
    lastStep: string | null,
  ): Promise<number | undefined> {
    if (!/^\d{6}$/.test(code)) return undefined;
    const result = await otplib().verify({
      secret: this.secrets.open(sealed),
      token: code,
      epochTolerance: 30,
    });
    if (!result.valid) return undefined;
    const step = (result as { timeStep: number }).timeStep;
    if (lastStep !== null && step <= Number(lastStep)) return undefined;
    return step;
  }

  async status(agent: AgentPrincipal) {
    const state = await this.repository.state(agent.loginId);
    return {
      enabled: Boolean(state?.enabled_at),
      recovery_codes_left: state?.enabled_at
        ? await this.repository.recoveryCodesLeft(agent.loginId)
        : 0,
      managed_by_provider: agent.viaSso === true,
    };
  }

  /**
   * A session of single sign-on sets up no second factor: the identity provider asks for its
   * own (docs/decisions.md, issue 28).
   */
  private notViaSso(agent: AgentPrincipal): void {
    if (agent.viaSso)
      throw AppError.forbidden(
        'You signed in with single sign-on: your identity provider manages your second factor.',
        'sso_manages_two_factor',
      );
  }

  /** A new secret to scan; it takes effect once a code made with it is confirmed. */
  async start(agent: AgentPrincipal) {
    this.notViaSso(agent);
    const state = await this.repository.state(agent.loginId);
    if (state?.enabled_at)
      throw AppError.conflict('Two-factor authentication is already on.', 'two_factor_already_on');
    const login = await this.agents.getLogin(agent.loginId);
    if (!login) throw AppError.notFound();
    const secret = otplib().generateSecret();
    await this.repository.setPending(agent.loginId, this.secrets.seal(secret));
    return {
      secret,
      otpauth_uri: otplib().generateURI({ issuer: ISSUER, label: login.email, secret }),
    };
  }

  /** Confirms the pending secret with a code; answers the recovery codes, shown this once. */
  async confirm(agent: AgentPrincipal, code: string): Promise<string[]> {
    this.notViaSso(agent);
    await this.limitCodes(agent.loginId);
    return this.dataSource.transaction(async (manager) => {
      const state = await this.repository.state(agent.loginId, manager, true);
      if (state?.enabled_at)
        throw AppError.conflict(
          'Two-factor authentication is already on.',
          'two_factor_already_on',
        );
      if (!state?.pending_sealed)
        throw AppError.conflict(
          'Start the setup first: no secret is waiting for a code.',
          'two_factor_setup_not_started',
        );
      const step = await this.match(state.pending_sealed, code.trim(), null);
      if (step === undefined)
        throw AppError.invalid(
          'code',
          'The code is not valid: type the current one from your app.',
          'two_factor_code_invalid',
        );
      const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
      await this.repository.enable(
        manager,
        agent.loginId,
        state.pending_sealed,
        step,
        codes.map(recoveryHash),
      );
      await this.audit.record(manager, agent.organizationId, {
        action: 'two_factor.enabled',
        target: { type: 'member', id: agent.userId },
      });
      return codes;
    });
  }

  /** Turns it off, given the password and a current code. */
  async disable(agent: AgentPrincipal, password: string, code: string): Promise<void> {
    await this.limitCodes(agent.loginId);
    const login = await this.agents.getLogin(agent.loginId);
    if (!login || !(await verifyPassword(password, login.passwordHash)))
      throw AppError.invalid('password', 'The password is incorrect.', 'password_incorrect');
    await this.dataSource.transaction(async (manager) => {
      const state = await this.repository.state(agent.loginId, manager, true);
      if (!state?.enabled_at || !state.secret_sealed)
        throw AppError.conflict('Two-factor authentication is not on.', 'two_factor_off');
      const step = await this.match(state.secret_sealed, code.trim(), state.last_step);
      if (step === undefined)
        throw AppError.invalid('code', 'The code is not valid.', 'two_factor_code_invalid');
      await this.repository.disable(manager, agent.loginId);
      await this.audit.record(manager, agent.organizationId, {
        action: 'two_factor.disabled',
        target: { type: 'member', id: agent.userId },
      });
    });
  }

  /** Whether the login needs the second step. */
  async required(loginId: string): Promise<boolean> {
    return Boolean((await this.repository.state(loginId))?.enabled_at);
  }

  /** The challenge a correct password earns: a short-lived token for the second step. */
  async challenge(loginId: string, userId: string) {
    const token = `tfc_${randomToken(32)}`;
    const expiresAt = await this.repository.insertChallenge(
      loginId,
      userId,
      sha256(token),
      CHALLENGE_SECONDS,
    );
    return { challenge: token, expires_at: new Date(expiresAt).toISOString() };
  }

  /**
   * The second step: a current code or an unused recovery code. A wrong one counts against the
   * challenge (spent after CHALLENGE_ATTEMPTS) and the login (CODES_PER_LOGIN per 15 minutes,
   * whichever challenge); a spent, used or expired challenge is a 401.
   */
  async finish(input: { challenge: string; code?: string; recovery_code?: string }, ip: string) {
    await rateLimited(this.limits, `two-factor:client:${ip}`, 60, WINDOW_MS);
    const over = () =>
      new AppError('unauthenticated', 'This login step is over: log in again with your password.', {
        reason: 'login_step_expired',
      });
    if (!/^tfc_[A-Za-z0-9_-]{43}$/.test(input.challenge)) throw over();
    const outcome = await this.dataSource.transaction(async (manager: EntityManager) => {
      const challenge = await this.repository.lockChallenge(manager, sha256(input.challenge));
      if (
        !challenge ||
        challenge.used_at ||
        challenge.attempts >= CHALLENGE_ATTEMPTS ||
        new Date(challenge.expires_at) <= new Date()
      )
        throw over();
      await this.limitCodes(challenge.login_id);
      const state = await this.repository.state(challenge.login_id, manager, true);
      if (!state?.secret_sealed) throw over();
      let ok = false;
      if (input.code !== undefined) {
        const step = await this.match(state.secret_sealed, input.code.trim(), state.last_step);
        if (step !== undefined) {
          await this.repository.useStep(manager, challenge.login_id, step);
          ok = true;
        }
      } else if (input.recovery_code !== undefined) {
        ok = await this.repository.useRecoveryCode(
          manager,
          challenge.login_id,
          recoveryHash(input.recovery_code),
        );
      }
      if (!ok)
        return {
          failed: challenge.id,
          userId: challenge.user_id,
          loginId: challenge.login_id,
        } as const;
      await this.repository.finishChallenge(manager, challenge.id);
      const token = await this.auth.startSession(manager, challenge.user_id);
      await this.auditMember(manager, challenge.login_id, challenge.user_id, 'auth.login', {
        method: input.code !== undefined ? 'password+totp' : 'password+recovery_code',
      });
      return {
        failed: undefined,
        token,
        userId: challenge.user_id,
        loginId: challenge.login_id,
      };
    });
    if (outcome.failed !== undefined) {
      // Outside the transaction above, so the count survives the refusal.
      await this.repository.failChallenge(outcome.failed);
      await this.auditMember(
        this.dataSource,
        outcome.loginId,
        outcome.userId,
        'auth.two_factor_failed',
        {
          method: input.code !== undefined ? 'totp' : 'recovery_code',
        },
      );
      const field = input.code !== undefined ? 'code' : 'recovery_code';
      throw AppError.invalid(
        field,
        field === 'code'
          ? 'The code is not valid: type the current one from your app.'
          : 'The recovery code is not valid or was already used.',
        field === 'code' ? 'two_factor_code_invalid' : 'recovery_code_invalid',
      );
    }
    return outcome;
  }

  /** An event of the member a challenge names, in that member's organization. */
  private async auditMember(
    executor: EntityManager | DataSource,
    loginId: string,
    userId: string,
    action: string,
    after: Record<string, unknown>,
  ): Promise<void> {
    const user = await this.agents.membershipOf(loginId, userId);
    if (!user) return;
    await this.audit.record(executor, user.organizationId, {
      action,
      target: { type: 'member', id: user.id, label: user.name },
      changes: { after },
      fallbackActor: { type: 'user', id: user.id, name: user.name },
    });
  }
}
