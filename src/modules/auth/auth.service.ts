import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import {
  DUMMY_PASSWORD_HASH,
  randomToken,
  sha256,
  verifyPassword,
} from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { AppConfig } from '../../config/app-config';
import { AgentsService } from '../agents/agents.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { SitesService } from '../sites/sites.service';
import { SessionsRepository } from './sessions.repository';

export const SESSION_TTL_DAYS = 30;
const TOKEN_PREFIX = 'sca_';
const LOGIN_WINDOW_MS = 60_000;
const LOGIN_LIMIT_PER_EMAIL = 5;
const LOGIN_LIMIT_PER_IP = 20;

@Injectable()
export class AuthService {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsService,
    private readonly agents: AgentsService,
    private readonly sites: SitesService,
    private readonly sessions: SessionsRepository,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  /** Organization, owner and first site in one transaction; the owner is logged in. */
  async register(input: {
    organization_name: string;
    name: string;
    email: string;
    password: string;
  }) {
    if (!this.config.env.SIGNUP_ENABLED)
      throw AppError.forbidden('Sign-up is disabled on this server.');
    const token = this.newToken();
    const result = await this.dataSource.transaction(async (manager) => {
      const organization = await this.organizations.create(manager, input.organization_name);
      const user = await this.agents.create(manager, organization.id, { ...input, role: 'owner' });
      const site = await this.sites.create(manager, organization.id, {
        name: input.organization_name,
      });
      await this.sessions.insert(manager, user.id, sha256(token), SESSION_TTL_DAYS);
      return { organization, user, site };
    });
    return { token, ...result };
  }

  /**
   * Email and password to a session token. Attempts are limited per address and per client IP
   * (429 with Retry-After); an unknown address costs the same time as a wrong password.
   */
  async login(email: string, password: string, ip: string) {
    await this.limit(`login:email:${email.trim().toLowerCase()}`, LOGIN_LIMIT_PER_EMAIL);
    await this.limit(`login:ip:${ip}`, LOGIN_LIMIT_PER_IP);
    const user = await this.agents.findForLogin(email.trim());
    const valid = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
    if (!user || !valid)
      throw new AppError('unauthenticated', 'These credentials do not match our records.');
    const token = this.newToken();
    await this.sessions.insert(undefined, user.id, sha256(token), SESSION_TTL_DAYS);
    return { token, user };
  }

  async logout(agent: AgentPrincipal): Promise<void> {
    await this.sessions.delete(agent.sessionId);
  }

  /** The agent behind a bearer token or session cookie, or undefined. */
  async authenticate(token: string): Promise<AgentPrincipal | undefined> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return undefined;
    const session = await this.sessions.findActive(sha256(token));
    if (!session) return undefined;
    const now = Date.now();
    if (now - (this.touched.get(session.session_id) ?? 0) > 60_000) {
      this.touched.set(session.session_id, now);
      void this.sessions.touch(session.session_id, SESSION_TTL_DAYS).catch(() => undefined);
    }
    return {
      userId: session.user_id,
      organizationId: session.organization_id,
      role: session.role,
      sessionId: session.session_id,
    };
  }

  private newToken(): string {
    return `${TOKEN_PREFIX}${randomToken(32)}`;
  }

  private async limit(key: string, limit: number): Promise<void> {
    const hit = await this.limits.hit(key, limit, LOGIN_WINDOW_MS);
    if (!hit.allowed) {
      const retryAfter = Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000));
      throw new AppError('rate_limited', 'Too Many Attempts.', undefined, {
        'Retry-After': String(retryAfter),
      });
    }
  }
}
