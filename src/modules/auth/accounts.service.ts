import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentPrincipal, Role } from '../../common/auth/auth.types';
import { randomToken, sha256, verifyPassword } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import { AgentsService } from '../agents/agents.service';
import { AuditLogService } from '../audit/audit-log.service';
import { MailService } from '../mail/mail.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { AuthService } from './auth.service';
import { InvitationsRepository } from './invitations.repository';
import { LoginThrottle } from './login-throttle';
import { LoginTokensRepository } from './login-tokens.repository';
import { SessionsRepository } from './sessions.repository';

export const INVITATION_DAYS = 7;
export const RESET_MINUTES = 60;
export const VERIFICATION_MINUTES = 3 * 24 * 60;
const HOUR_MS = 3_600_000;
/** Reset requests per address and per client address per hour (unknown addresses count too). */
const RESETS_PER_ADDRESS = 5;
const RESETS_PER_CLIENT = 30;
const INVITATIONS_PER_ORGANIZATION_PER_HOUR = 100;

/** What a mailed link carries: 32 random bytes, base64url; only its SHA-256 is kept. */
function newLinkToken(): string {
  return randomToken(32);
}

function validLinkToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

/**
 * Invitations, password reset and address verification (issue 28, DESIGN section 12): each a
 * single-use mailed link whose token is stored hashed.
 */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger('accounts');

  constructor(
    private readonly dataSource: DataSource,
    private readonly agents: AgentsService,
    private readonly organizations: OrganizationsService,
    private readonly mail: MailService,
    private readonly auth: AuthService,
    private readonly invitations: InvitationsRepository,
    private readonly tokens: LoginTokensRepository,
    private readonly sessions: SessionsRepository,
    private readonly throttle: LoginThrottle,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
    private readonly audit: AuditLogService,
  ) {}

  private link(path: string, token: string): string {
    return `${this.config.publicUrl}${path}?token=${encodeURIComponent(token)}`;
  }

  /**
   * Mails an invitation. The answer is the same whether or not the address has a login elsewhere
   * (the mail too); only an address already in this team is refused, which the team list shows
   * its administrators anyway.
   */
  async invite(actor: AgentPrincipal, input: { email: string; role: Role; name?: string }) {
    if (input.role === 'owner' && actor.role !== 'owner')
      throw AppError.forbidden('Only an owner can invite another owner.', 'owner_only');
    const login = await this.agents.getLogin(actor.loginId);
    if (!login?.emailVerifiedAt)
      throw AppError.forbidden(
        'Confirm your email address before inviting teammates: open the link we mailed you.',
        'email_unverified',
      );
    await rateLimited(
      this.limits,
      `invitations:${actor.organizationId}`,
      INVITATIONS_PER_ORGANIZATION_PER_HOUR,
      HOUR_MS,
    );
    const email = input.email.trim();
    const existing = await this.agents.findLogin(email);
    if (existing && (await this.agents.findMembership(existing.id, actor.organizationId)))
      throw AppError.invalid(
        'email',
        'This address is already a member of the team.',
        'already_member',
      );
    const [inviter, organization] = await Promise.all([
      this.agents.get(actor.organizationId, actor.userId),
      this.organizations.get(actor.organizationId),
    ]);
    const token = newLinkToken();
    const invitation = await this.dataSource.transaction(async (manager) => {
      const row = await this.invitations.insert(manager, actor.organizationId, {
        email,
        name: input.name?.trim() || null,
        role: input.role,
        tokenHash: sha256(token),
        invitedBy: actor.userId,
        days: INVITATION_DAYS,
      });
      await this.audit.record(manager, actor.organizationId, {
        action: 'invitation.created',
        target: { type: 'invitation', id: row.id, label: email },
        changes: { after: { email, role: input.role } },
      });
      return row;
    });
    await this.mail.send(actor.organizationId, {
      template: {
        kind: 'team_invitation',
        organization: organization.name,
        inviter: inviter.name,
        url: this.link('/accept-invite', token),
        days: INVITATION_DAYS,
      },
      to: email,
      toName: invitation.name,
    });
    return invitation;
  }

  pendingInvitations(organizationId: string, page: { perPage: number; offset: number }) {
    return this.invitations.pending(organizationId, page);
  }

  async revokeInvitation(organizationId: string, id: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.invitations.revoke(organizationId, id, manager))) throw AppError.notFound();
      await this.audit.record(manager, organizationId, {
        action: 'invitation.revoked',
        target: { type: 'invitation', id },
      });
    });
  }

  /**
   * Accepts an invitation: a newcomer's login is made with the password given; an address that
   * already has a login proves it with its own password (counted as a failed login when wrong)
   * and gains a membership. Either way the new member is logged in.
   */
  async acceptInvitation(input: { token: string; name?: string; password: string }, ip: string) {
    const invalid = () =>
      AppError.invalid(
        'token',
        'This invitation link is invalid, used, revoked or expired.',
        'invitation_invalid',
      );
    if (!validLinkToken(input.token)) throw invalid();
    await rateLimited(this.limits, `accept-invite:ip:${ip}`, 30, HOUR_MS);
    const peek = await this.dataSource.transaction(async (manager) => {
      const row = await this.invitations.lockByToken(manager, sha256(input.token));
      return row;
    });
    if (!peek || peek.accepted_at || peek.revoked_at || new Date(peek.expires_at) <= new Date())
      throw invalid();
    const existing = await this.agents.findLogin(peek.email);
    if (existing) {
      await this.throttle.check(existing.email, ip);
      if (!(await verifyPassword(input.password, existing.passwordHash))) {
        await this.throttle.fail(existing.email, ip);
        throw AppError.invalid(
          'password',
          'This address already has an account: enter its password to accept.',
          'invitation_needs_password',
        );
      }
    } else if (input.password.length < 8) {
      throw AppError.invalid(
        'password',
        'The password must be at least 8 characters.',
        'password_too_short',
      );
    }
    const name = input.name?.trim() || peek.name || (await this.knownName(existing));
    if (!name) throw AppError.invalid('name', 'The name field is required.', 'required');
    const { token, user } = await this.dataSource.transaction(async (manager) => {
      // Again under the lock: a second acceptance of the same link waits here, then fails.
      const invitation = await this.invitations.lockByToken(manager, sha256(input.token));
      if (
        !invitation ||
        invitation.accepted_at ||
        invitation.revoked_at ||
        new Date(invitation.expires_at) <= new Date()
      )
        throw invalid();
      const login =
        existing ?? (await this.agents.newLogin(manager, invitation.email, input.password));
      const member = await this.agents.join(manager, invitation.organization_id, login, {
        name,
        role: invitation.role,
      });
      await this.invitations.markAccepted(
        manager,
        invitation.organization_id,
        invitation.id,
        member.id,
      );
      await this.audit.record(manager, invitation.organization_id, {
        action: 'invitation.accepted',
        target: { type: 'member', id: member.id, label: member.name },
        changes: { after: { email: invitation.email, role: invitation.role } },
        fallbackActor: { type: 'user', id: member.id, name: member.name },
      });
      // The mailbox is proven: the link reached it.
      await this.agents.markVerified(login.id, manager);
      return { token: await this.auth.startSession(manager, member.id), user: member };
    });
    const organization = await this.organizations.get(user.organizationId);
    return { token, user, organization };
  }

  private async knownName(login: { id: string } | undefined): Promise<string | undefined> {
    if (!login) return undefined;
    const [membership] = await this.agents.memberships(login.id);
    if (!membership) return undefined;
    return (await this.agents.get(membership.organizationId, membership.userId)).name;
  }

  /**
   * Always the same quick answer: the lookup and the mail happen after it, so neither the answer
   * nor its timing tells a known address from an unknown one. Both count against the limits.
   */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    const address = email.trim().toLowerCase();
    await rateLimited(this.limits, `reset:client:${ip}`, RESETS_PER_CLIENT, HOUR_MS);
    await rateLimited(
      this.limits,
      `reset:address:${sha256(address).toString('hex')}`,
      RESETS_PER_ADDRESS,
      HOUR_MS,
    );
    setImmediate(() => {
      this.mailReset(address).catch((error: unknown) =>
        this.logger.error(`password reset mail failed: ${String(error)}`),
      );
    });
  }

  /** The reset link, to a known address only (nothing at all for an unknown one). */
  private async mailReset(email: string): Promise<void> {
    const login = await this.agents.findLogin(email);
    if (!login) return;
    const [membership] = await this.agents.memberships(login.id);
    // A login with no organization left cannot log in; nothing to reset it for.
    if (!membership) return;
    const user = await this.agents.get(membership.organizationId, membership.userId);
    const token = newLinkToken();
    await this.tokens.insert(login.id, 'password_reset', sha256(token), RESET_MINUTES);
    await this.mail.send(membership.organizationId, {
      template: {
        kind: 'password_reset',
        name: user.name,
        url: this.link('/reset-password', token),
        minutes: RESET_MINUTES,
      },
      to: login.email,
      toName: user.name,
    });
  }

  /** Sets the password of the link's login; every session of it ends, on every instance. */
  async confirmPasswordReset(token: string, password: string): Promise<void> {
    const invalid = () =>
      AppError.invalid(
        'token',
        'This reset link is invalid, used or expired: ask for a new one.',
        'reset_link_invalid',
      );
    if (!validLinkToken(token)) throw invalid();
    const ended = await this.dataSource.transaction(async (manager) => {
      const row = await this.tokens.consume(manager, sha256(token), 'password_reset');
      if (!row) throw invalid();
      await this.agents.setPassword(manager, row.login_id, password);
      await this.agents.markVerified(row.login_id, manager);
      await this.agents.auditLogin(manager, row.login_id, 'password.reset');
      return this.sessions.deleteAllOfLogin(manager, row.login_id);
    });
    this.auth.ended(ended);
  }

  /** Mails the address check of a login (at sign-up, and again on request). */
  async sendVerification(organizationId: string, userId: string, loginId: string): Promise<void> {
    const login = await this.agents.getLogin(loginId);
    if (!login || login.emailVerifiedAt) return;
    await rateLimited(this.limits, `verify:login:${loginId}`, 5, HOUR_MS);
    const user = await this.agents.get(organizationId, userId);
    const token = newLinkToken();
    await this.tokens.insert(login.id, 'email_verification', sha256(token), VERIFICATION_MINUTES);
    await this.mail.send(organizationId, {
      template: {
        kind: 'email_verification',
        name: user.name,
        url: this.link('/verify-email', token),
      },
      to: login.email,
      toName: user.name,
    });
  }

  async verifyEmail(token: string): Promise<void> {
    const invalid = () =>
      AppError.invalid(
        'token',
        'This confirmation link is invalid, used or expired.',
        'confirmation_link_invalid',
      );
    if (!validLinkToken(token)) throw invalid();
    await this.dataSource.transaction(async (manager) => {
      const row = await this.tokens.consume(manager, sha256(token), 'email_verification');
      if (!row) throw invalid();
      await this.agents.markVerified(row.login_id, manager);
      await this.agents.auditLogin(manager, row.login_id, 'email.verified');
    });
  }
}
