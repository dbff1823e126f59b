import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentPrincipal, LoginOrigin, Role } from '../../common/auth/auth.types';
import { hashPassword, needsRehash } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import type { SqlExecutor } from '../../database/sql';
import { AuditLogService, changedFields } from '../audit/audit-log.service';
import { OutboxService } from '../outbox/outbox.service';
import { agentEvents } from './agent-events';
import { setAvatarBase } from './agents.dto';
import { RealtimeService } from '../realtime/realtime.service';
import { AgentsRepository } from './agents.repository';
import {
  type LoginRecord,
  type MemberRecord,
  type MembershipRecord,
  toLoginRecord,
  toMemberRecord,
  toMembershipRecord,
} from './member-record';

export type { LoginRecord, MemberRecord, MembershipRecord };

/** An agent's avatar as the profile routes serve it. */
export interface AvatarImage {
  contentType: string;
  data: Buffer;
}

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === UNIQUE_VIOLATION;
}

/** Agent accounts and the team rules (the last owner stays; only owners manage owners). */
@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly realtime: RealtimeService,
    private readonly outbox: OutboxService,
    private readonly audit: AuditLogService,
  ) {
    setAvatarBase(config.publicUrl);
  }

  private get passwordCost(): number {
    return this.config.env.PASSWORD_SCRYPT_N;
  }

  /**
   * A member of the organization. The address's login is made with `password` when it has none,
   * recording `origin` (who made it: DESIGN section 13 trusts an address only of a login its
   * person signed up for); an address that already has a login (a member elsewhere) joins with
   * that login and keeps its own password, and the answer is the same either way (nothing tells
   * an administrator that the address exists elsewhere). `newLogin` (sign-up) refuses an address
   * that has a login.
   */
  async create(
    manager: EntityManager,
    organizationId: string,
    input: { name: string; email: string; password: string; role: Role },
    options: { origin: LoginOrigin; newLogin?: boolean; verified?: boolean },
  ): Promise<MemberRecord> {
    const passwordHash = await hashPassword(input.password, this.passwordCost);
    const taken = () =>
      AppError.invalid('email', 'The email has already been taken.', 'email_taken');
    try {
      // A savepoint, so a duplicate address does not abort the caller's transaction.
      const user = await manager.transaction(async (inner) => {
        const { login, created } = await this.agents.ensureLogin(
          inner,
          input.email.trim(),
          passwordHash,
          options.verified ?? true,
          options.origin,
        );
        if (options.newLogin && !created) throw taken();
        return this.agents.insert(inner, organizationId, {
          name: input.name,
          login,
          role: input.role,
        });
      });
      await this.audit.record(manager, organizationId, {
        action: 'member.created',
        target: { type: 'member', id: user.id, label: user.name },
        changes: { after: { name: user.name, email: user.email, role: user.role } },
        fallbackActor: { type: 'user', id: user.id, name: user.name },
      });
      return toMemberRecord(user);
    } catch (error) {
      // Already a member of this organization (which its administrators can see anyway).
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** A membership of an existing login (an accepted invitation), in the caller's transaction. */
  async join(
    manager: EntityManager,
    organizationId: string,
    login: Pick<LoginRecord, 'id' | 'email'>,
    input: { name: string; role: Role },
  ): Promise<MemberRecord> {
    try {
      const user = await manager.transaction((inner) =>
        this.agents.insert(inner, organizationId, { name: input.name, login, role: input.role }),
      );
      return toMemberRecord(user);
    } catch (error) {
      if (isUniqueViolation(error))
        throw AppError.conflict('You are already a member of this organization.', 'already_member');
      throw error;
    }
  }

  /** The login of an address, if any (login, invitations, password reset). */
  async findLogin(email: string): Promise<LoginRecord | undefined> {
    const login = await this.agents.findLoginByEmail(email.trim());
    return login && toLoginRecord(login);
  }

  async getLogin(loginId: string, manager?: EntityManager): Promise<LoginRecord | undefined> {
    const login = await this.agents.findLogin(manager, loginId);
    return login && toLoginRecord(login);
  }

  /** Makes a login for an address that has none (an invitation accepted by a newcomer). */
  async newLogin(manager: EntityManager, email: string, password: string): Promise<LoginRecord> {
    const passwordHash = await hashPassword(password, this.passwordCost);
    const { login, created } = await this.agents.ensureLogin(
      manager,
      email,
      passwordHash,
      true,
      'invitation',
    );
    if (!created)
      throw AppError.conflict(
        'This address already has an account: log in instead.',
        'account_exists',
      );
    return toLoginRecord(login);
  }

  /** The login's active memberships, most recently used first. */
  async memberships(loginId: string): Promise<MembershipRecord[]> {
    return (await this.agents.memberships(loginId)).map(toMembershipRecord);
  }

  async findMembership(loginId: string, organizationId: string): Promise<MemberRecord | undefined> {
    const user = await this.agents.findMembership(loginId, organizationId);
    return user && toMemberRecord(user);
  }

  /** The login's active membership that is `userId` (in whichever organization), or undefined. */
  async membershipOf(loginId: string, userId: string): Promise<MemberRecord | undefined> {
    const membership = (await this.memberships(loginId)).find((m) => m.userId === userId);
    return membership ? this.findMember(membership.organizationId, userId) : undefined;
  }

  /**
   * An event of a login's own (a failed login, a reset password, a verified address), told to
   * each organization it is a member of, as that member. `memberships`: the login's, when the
   * caller has read them already.
   */
  async auditLogin(
    executor: SqlExecutor,
    loginId: string,
    action: string,
    memberships?: MembershipRecord[],
  ): Promise<void> {
    for (const membership of memberships ?? (await this.memberships(loginId))) {
      const user = await this.get(membership.organizationId, membership.userId);
      await this.audit.record(executor, membership.organizationId, {
        action,
        target: { type: 'member', id: user.id, label: user.name },
        fallbackActor: { type: 'user', id: user.id, name: user.name },
      });
    }
  }

  markVerified(loginId: string, manager?: EntityManager): Promise<void> {
    return this.agents.markLoginVerified(loginId, manager);
  }

  /** After a successful login: a hash made at a lower cost than today's is made again. */
  async rehashIfWeak(login: LoginRecord, password: string): Promise<void> {
    if (!needsRehash(login.passwordHash, this.passwordCost)) return;
    const passwordHash = await hashPassword(password, this.passwordCost);
    await this.agents.setPasswordHash(undefined, login.id, passwordHash, login.passwordHash);
  }

  /** Stores a new password for the login (in the caller's transaction, which ends sessions). */
  async setPassword(manager: EntityManager, loginId: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password, this.passwordCost);
    if (!(await this.agents.setPasswordHash(manager, loginId, passwordHash)))
      throw AppError.notFound();
  }

  async get(organizationId: string, userId: string): Promise<MemberRecord> {
    const user = await this.agents.find(this.dataSource.manager, organizationId, userId);
    if (!user) throw AppError.notFound();
    return toMemberRecord(user);
  }

  /** The user if it is an active member of the organization, else undefined. */
  async findMember(organizationId: string, userId: string): Promise<MemberRecord | undefined> {
    const user = await this.agents.find(this.dataSource.manager, organizationId, userId);
    return user && toMemberRecord(user);
  }

  /**
   * The agent an API call acts as (DESIGN section 5): `agent_user_id` when given, else the user
   * who created the key. Either must be an active member of the organization, else 422 on
   * `agent_user_id`.
   */
  async resolveActor(
    manager: EntityManager,
    organizationId: string,
    agentUserId: number | undefined,
    keyCreatorId: string | null,
  ): Promise<MemberRecord> {
    if (agentUserId !== undefined) {
      const user = await this.agents.find(manager, organizationId, String(agentUserId));
      if (!user)
        throw AppError.invalid(
          'agent_user_id',
          'The selected agent_user_id is not an agent of this organization.',
          'agent_not_in_organization',
        );
      return toMemberRecord(user);
    }
    const creator = keyCreatorId
      ? await this.agents.find(manager, organizationId, keyCreatorId)
      : undefined;
    if (!creator) {
      throw AppError.invalid(
        'agent_user_id',
        'The agent_user_id field is required: the user who created this API key is no longer in the organization.',
        'api_key_owner_gone',
      );
    }
    return toMemberRecord(creator);
  }

  async page(
    organizationId: string,
    filter: { role?: Role; oldestFirst?: boolean },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: MemberRecord[]; total: number }> {
    const { rows, total } = await this.agents.page(organizationId, filter, page);
    return { rows: rows.map(toMemberRecord), total };
  }

  invite(
    actor: AgentPrincipal,
    input: { name: string; email: string; password: string; role: Role },
  ) {
    if (input.role === 'owner' && actor.role !== 'owner') {
      throw AppError.forbidden('Only an owner can add another owner.', 'owner_only');
    }
    // The owner chose the address and the password: the login is the team's making.
    return this.dataSource.transaction((manager) =>
      this.create(manager, actor.organizationId, input, { origin: 'team' }),
    );
  }

  async update(
    actor: AgentPrincipal,
    userId: string,
    changes: { name?: string; role?: Role },
  ): Promise<MemberRecord> {
    let roleChanged = false;
    const updated = await this.dataSource.transaction(async (manager) => {
      const owners = await this.agents.lockOwners(manager, actor.organizationId);
      const target = await this.agents.find(manager, actor.organizationId, userId);
      if (!target) throw AppError.notFound();
      if (changes.role && changes.role !== target.role) {
        roleChanged = true;
        if ((target.role === 'owner' || changes.role === 'owner') && actor.role !== 'owner') {
          throw AppError.forbidden(
            'Only an owner can grant or take away the owner role.',
            'owner_only',
          );
        }
        if (target.role === 'owner' && owners.length === 1) {
          throw AppError.invalid(
            'role',
            'The last owner of the organization cannot be demoted.',
            'last_owner',
          );
        }
      }
      const row = await this.agents.update(manager, actor.organizationId, userId, changes);
      if (!row) throw AppError.notFound();
      const changed = changedFields(
        { name: target.name, role: target.role },
        { name: row.name, role: row.role },
      );
      if (Object.keys(changed.after).length > 0) {
        await this.audit.record(manager, actor.organizationId, {
          action: roleChanged ? 'member.role_changed' : 'member.updated',
          target: { type: 'member', id: row.id, label: row.name },
          changes: changed,
        });
      }
      return toMemberRecord(row);
    });
    // Sockets carry the role they were opened with: they close, and reconnect with the new one.
    if (roleChanged) this.realtime.disconnectAgent(userId);
    return updated;
  }

  async remove(actor: AgentPrincipal, userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const owners = await this.agents.lockOwners(manager, actor.organizationId);
      const target = await this.agents.find(manager, actor.organizationId, userId);
      if (!target) throw AppError.notFound();
      if (target.role === 'owner') {
        if (actor.role !== 'owner')
          throw AppError.forbidden('Only an owner can remove an owner.', 'owner_only');
        if (owners.length === 1)
          throw AppError.conflict(
            'The last owner of the organization cannot be removed.',
            'last_owner',
          );
      }
      await this.agents.remove(manager, actor.organizationId, userId);
      await this.audit.record(manager, actor.organizationId, {
        action: 'member.removed',
        target: { type: 'member', id: target.id, label: target.name },
        changes: { before: { name: target.name, email: target.email, role: target.role } },
      });
    });
    this.realtime.disconnectAgent(userId);
  }

  /**
   * Presence (`online`, `away`, `offline`) with `last_seen_at`, as the member chose it; the
   * choice of Away outlives the dashboard's connections (see `connected`).
   */
  setPresence(organizationId: string, userId: string, status: 'online' | 'away' | 'offline') {
    return this.changePresence(organizationId, userId, { status, awayChosen: status === 'away' });
  }

  /** The agent socket connected: `online`, or `away` again when the member chose Away. */
  async connected(organizationId: string, userId: string): Promise<void> {
    await this.changePresence(organizationId, userId, { status: null, awayChosen: null });
  }

  /** The agent's last socket closed: `offline`, keeping the member's choice for the next connect. */
  async disconnected(organizationId: string, userId: string): Promise<void> {
    await this.changePresence(organizationId, userId, { status: 'offline', awayChosen: null });
  }

  /**
   * When the agent goes online or stops being online, the organization's widgets hear whether
   * anyone is still online (`agents.availability`), read after the change committed.
   */
  private async changePresence(
    organizationId: string,
    userId: string,
    change: { status: 'online' | 'away' | 'offline' | null; awayChosen: boolean | null },
  ) {
    const presence = await this.dataSource.transaction(async (manager) => {
      const row = await this.agents.setPresence(manager, organizationId, userId, change);
      if (row && row.status === 'online' && row.previous !== 'online') {
        // Internal (no webhook): automatic assignment offers the waiting chats again.
        await this.outbox.publish(manager, agentEvents.online(organizationId, userId));
      }
      return row;
    });
    if (!presence) throw AppError.notFound();
    if ((presence.previous === 'online') !== (presence.status === 'online')) {
      this.realtime.toOrganizationWidgets(organizationId, 'agents.availability', {
        agents_online: await this.agents.anyOnline(organizationId),
      });
    }
    return presence;
  }

  /** The member's own name (the profile page). */
  async rename(organizationId: string, userId: string, name: string): Promise<MemberRecord> {
    const row = await this.dataSource.transaction((manager) =>
      this.agents.update(manager, organizationId, userId, { name }),
    );
    if (!row) throw AppError.notFound();
    return toMemberRecord(row);
  }

  /** Replaces or removes (null) the member's avatar. */
  async setAvatar(
    organizationId: string,
    userId: string,
    image: { token: string; contentType: string; data: Buffer } | null,
  ): Promise<MemberRecord> {
    const row = await this.dataSource.transaction((manager) =>
      this.agents.setAvatar(manager, organizationId, userId, image),
    );
    if (!row) throw AppError.notFound();
    return toMemberRecord(row);
  }

  /** The avatar image of this token (its unguessable address); undefined for none. */
  async avatar(token: string): Promise<AvatarImage | undefined> {
    if (!/^av_[0-9A-Za-z]{32}$/.test(token)) return undefined;
    const image = await this.agents.avatarByToken(token);
    return image && { contentType: image.content_type, data: image.data };
  }

  /** Whether any agent of the organization is online now. */
  anyOnline(organizationId: string): Promise<boolean> {
    return this.agents.anyOnline(organizationId);
  }
}
