import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import {
  dummyPasswordHash,
  randomToken,
  sha256,
  verifyPassword,
} from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import { AgentsService } from '../agents/agents.service';
import { AuditLogService } from '../audit/audit-log.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { RealtimeService } from '../realtime/realtime.service';
import { SitesService } from '../sites/sites.service';
import { LoginThrottle } from './login-throttle';
import { SessionsRepository } from './sessions.repository';
import { SsoRepository } from './sso.repository';

/** Idle expiry: a session unused this long ends (each use moves it on, at most once a minute). */
export const SESSION_TTL_DAYS = 30;
/** How long a socket's re-check of its session is believed (removal also closes it at once). */
const SESSION_CHECK_MS = 1000;
const TOKEN_PREFIX = 'sca_';
const LOGIN_WINDOW_MS = 60_000;
/** Current-password checks per user per minute (changing the password). */
const PASSWORD_CHECKS_PER_MINUTE = 5;
const HOUR_MS = 3_600_000;

@Injectable()
export class AuthService {
  private readonly touched = new Map<string, number>();
  /** Sessions found alive by a socket's re-check, and until when that is believed. */
  private readonly checked = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsService,
    private readonly agents: AgentsService,
    private readonly sites: SitesService,
    private readonly sessions: SessionsRepository,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
    private readonly realtime: RealtimeService,
    private readonly throttle: LoginThrottle,
    private readonly audit: AuditLogService,
    private readonly sso: SsoRepository,
  ) {}

  /** Days a cookie or token may live: the absolute lifetime caps the idle expiry. */
  get sessionDays(): number {
    return Math.min(SESSION_TTL_DAYS, this.config.env.SESSION_MAX_AGE_DAYS);
  }

  private get maxAgeDays(): number {
    return this.config.env.SESSION_MAX_AGE_DAYS;
  }

  /** Organization, owner and first site in one transaction; the owner is logged in. */
  async register(
    input: {
      organization_name: string;
      name: string;
      email: string;
      password: string;
    },
    ip: string,
  ) {
    if (!this.config.env.SIGNUP_ENABLED)
      throw AppError.forbidden('Sign-up is disabled on this server.', 'signup_disabled');
    await this.limit(`signup:ip:${ip}`, this.config.env.SIGNUP_LIMIT_PER_HOUR, HOUR_MS);
    const token = this.newToken();
    const result = await this.dataSource.transaction(async (manager) => {
      const organization = await this.organizations.create(manager, input.organization_name);
      const user = await this.agents.create(
        manager,
        organization.id,
        { ...input, role: 'owner' },
        { origin: 'signup', newLogin: true, verified: false },
      );
      const site = await this.sites.create(
        manager,
        organization.id,
        { name: input.organization_name },
        { type: 'user', id: user.id, name: user.name },
      );
      await this.sessions.insert(manager, user.id, sha256(token), this.sessionDays);
      return { organization, user, site };
    });
    return { token, ...result };
  }

  /**
   * Email and password to a session token. Failures make the failing client wait (LoginThrottle:
   * 429 with Retry-After); an unknown address costs the same time as a wrong password.
   */
  async login(email: string, password: string, ip: string) {
    await this.throttle.check(email, ip);
    const login = await this.agents.findLogin(email);
    const valid = await verifyPassword(
      password,
      login?.passwordHash ?? dummyPasswordHash(this.config.env.PASSWORD_SCRYPT_N),
    );
    // A login lands in its most recently used organization; one with none left cannot log in.
    const memberships = login ? await this.agents.memberships(login.id) : [];
    if (!login || !valid || memberships.length === 0) {
      await this.throttle.fail(email, ip);
      // An address of no member has no organization to tell; each organization of a member's is.
      if (login)
        await this.agents.auditLogin(this.dataSource, login.id, 'auth.login_failed', memberships);
      throw new AppError('unauthenticated', 'These credentials do not match our records.', {
        reason: 'credentials_invalid',
      });
    }
    await this.agents.rehashIfWeak(login, password);
    // Organizations enforcing single sign-on take no password from their members but owners.
    const open: typeof memberships = [];
    for (const member of memberships)
      if (member.role === 'owner' || !(await this.sso.enforced(member.organizationId)))
        open.push(member);
    if (open.length === 0)
      throw AppError.forbidden(
        'This organization requires single sign-on (SSO): sign in with SSO instead of a password.',
        'sso_required',
      );
    const user = await this.agents.get(open[0].organizationId, open[0].userId);
    // With two-factor on, the password earns a challenge (TwoFactorService), not a session.
    if (login.twoFactorEnabledAt) return { twoFactor: true as const, user };
    const token = await this.dataSource.transaction(async (manager) => {
      const started = await this.startSession(manager, user.id);
      await this.audit.record(manager, user.organizationId, {
        action: 'auth.login',
        target: { type: 'member', id: user.id, label: user.name },
        changes: { after: { method: 'password' } },
        fallbackActor: { type: 'user', id: user.id, name: user.name },
      });
      return started;
    });
    return { token, user };
  }

  /** A new session for the membership; answers its token (stored only as its SHA-256). */
  async startSession(
    manager: EntityManager | undefined,
    userId: string,
    options: { viaSso?: boolean } = {},
  ): Promise<string> {
    const token = this.newToken();
    await this.sessions.insert(
      manager,
      userId,
      sha256(token),
      this.sessionDays,
      options.viaSso === true,
    );
    return token;
  }

  /**
   * The same login in another of its organizations: a new session for that membership, and this
   * one ends (with its sockets). 404 where the login is not a member.
   */
  async switchOrganization(agent: AgentPrincipal, organizationId: string) {
    // The provider of one organization vouches for that membership only, not the login's others.
    if (agent.viaSso && organizationId !== agent.organizationId)
      throw AppError.forbidden(
        'A session started with single sign-on stays in its organization: log in with your password to switch.',
        'sso_session_locked',
      );
    const user = await this.agents.findMembership(agent.loginId, organizationId);
    if (!user) throw AppError.notFound();
    const token = await this.dataSource.transaction(async (manager) => {
      const started = await this.startSession(manager, user.id);
      await this.sessions.delete(agent.userId, agent.sessionId, manager);
      await this.audit.record(manager, user.organizationId, {
        action: 'auth.organization_switched',
        target: { type: 'member', id: user.id, label: user.name },
        fallbackActor: { type: 'user', id: user.id, name: user.name },
      });
      return started;
    });
    this.ended([agent.sessionId]);
    return { token, user };
  }

  /** Ends this session, and closes the sockets opened with it on every instance. */
  async logout(agent: AgentPrincipal): Promise<void> {
    await this.sessions.delete(agent.userId, agent.sessionId);
    this.ended([agent.sessionId]);
  }

  /** Ends every session of the agent, this one included, and closes all its sockets. */
  async logoutEverywhere(agent: AgentPrincipal): Promise<void> {
    this.ended(await this.sessions.deleteAll(undefined, agent.userId));
    this.realtime.disconnectAgent(agent.userId);
  }

  /**
   * A new password, given the current one (tried against the login limit of the account); every
   * other session ends, with its sockets. This one stays.
   */
  async changePassword(agent: AgentPrincipal, current: string, next: string): Promise<void> {
    await this.limit(`password:user:${agent.userId}`, PASSWORD_CHECKS_PER_MINUTE);
    const login = await this.agents.getLogin(agent.loginId);
    if (!login || !(await verifyPassword(current, login.passwordHash)))
      throw AppError.invalid(
        'current_password',
        'The current password is incorrect.',
        'password_incorrect',
      );
    const ended = await this.dataSource.transaction(async (manager) => {
      await this.agents.setPassword(manager, agent.loginId, next);
      await this.audit.record(manager, agent.organizationId, {
        action: 'password.changed',
        target: { type: 'member', id: agent.userId },
      });
      return this.sessions.deleteAllOfLogin(manager, agent.loginId, agent.sessionId);
    });
    this.ended(ended);
  }

  /**
   * Whether a socket's session is still what it was when the socket opened: not ended, not
   * expired, the agent still in the team with the same role. Believed for a second; the changes
   * that end a session also close its sockets at once.
   */
  async stillValid(agent: AgentPrincipal): Promise<boolean> {
    const now = Date.now();
    if ((this.checked.get(agent.sessionId) ?? 0) > now) return true;
    const session = await this.sessions.findActiveById(agent.sessionId, this.maxAgeDays);
    // An organization that starts requiring two-factor closes the sockets of members without it.
    const valid =
      session !== undefined && session.role === agent.role && !session.two_factor_missing;
    if (valid) this.checked.set(agent.sessionId, now + SESSION_CHECK_MS);
    else this.checked.delete(agent.sessionId);
    if (this.checked.size > 10_000) this.checked.clear();
    return valid;
  }

  /** When the session ends if nothing changes (the socket's timer), or undefined once it has. */
  async sessionEndsAt(agent: AgentPrincipal): Promise<Date | undefined> {
    const session = await this.sessions.findActiveById(agent.sessionId, this.maxAgeDays);
    return session && session.role === agent.role ? new Date(session.ends_at) : undefined;
  }

  /** Forgets ended sessions and closes their sockets on every instance. */
  ended(sessionIds: string[]): void {
    for (const id of sessionIds) this.checked.delete(id);
    this.realtime.disconnectSessions(sessionIds);
  }

  /** The agent behind a bearer token or session cookie, or undefined. */
  async authenticate(token: string): Promise<AgentPrincipal | undefined> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return undefined;
    const session = await this.sessions.findActive(sha256(token), this.maxAgeDays);
    if (!session) return undefined;
    const now = Date.now();
    if (now - (this.touched.get(session.session_id) ?? 0) > 60_000) {
      this.touched.set(session.session_id, now);
      void this.sessions.touch(session.session_id, this.sessionDays).catch(() => undefined);
    }
    return {
      userId: session.user_id,
      loginId: String(session.login_id),
      organizationId: session.organization_id,
      role: session.role,
      sessionId: String(session.session_id),
      twoFactorMissing: session.two_factor_missing,
      viaSso: session.via_sso,
      sessionEndsAt: new Date(session.ends_at),
    };
  }

  private newToken(): string {
    return `${TOKEN_PREFIX}${randomToken(32)}`;
  }

  private limit(key: string, limit: number, windowMs = LOGIN_WINDOW_MS): Promise<void> {
    return rateLimited(this.limits, key, limit, windowMs);
  }
}
