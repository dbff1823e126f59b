import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AgentPrincipal, Role } from '../../common/auth/auth.types';
import { hashPassword, needsRehash } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import { OutboxService } from '../outbox/outbox.service';
import { agentEvents } from './agent-events';
import { RealtimeService } from '../realtime/realtime.service';
import { AgentsRepository, type UserRow } from './agents.repository';

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
  ) {}

  private get passwordCost(): number {
    return this.config.env.PASSWORD_SCRYPT_N;
  }

  async create(
    manager: EntityManager,
    organizationId: string,
    input: { name: string; email: string; password: string; role: Role },
  ): Promise<UserRow> {
    const passwordHash = await hashPassword(input.password, this.passwordCost);
    try {
      // A savepoint, so a duplicate address does not abort the caller's transaction.
      return await manager.transaction((inner) =>
        this.agents.insert(inner, organizationId, {
          ...input,
          email: input.email.trim(),
          passwordHash,
        }),
      );
    } catch (error) {
      if (isUniqueViolation(error))
        throw AppError.invalid('email', 'The email has already been taken.');
      throw error;
    }
  }

  findForLogin(email: string): Promise<UserRow | undefined> {
    return this.agents.findActiveByEmail(email);
  }

  /** After a successful login: a hash made at a lower cost than today's is made again. */
  async rehashIfWeak(user: UserRow, password: string): Promise<void> {
    if (!needsRehash(user.password_hash, this.passwordCost)) return;
    const passwordHash = await hashPassword(password, this.passwordCost);
    await this.agents.setPasswordHash(
      undefined,
      user.organization_id,
      user.id,
      passwordHash,
      user.password_hash,
    );
  }

  /** Stores a new password (inside the caller's transaction, which also ends sessions). */
  async setPassword(
    manager: EntityManager,
    organizationId: string,
    userId: string,
    password: string,
  ): Promise<void> {
    const passwordHash = await hashPassword(password, this.passwordCost);
    if (!(await this.agents.setPasswordHash(manager, organizationId, userId, passwordHash)))
      throw AppError.notFound();
  }

  async get(organizationId: string, userId: string): Promise<UserRow> {
    const user = await this.agents.find(this.dataSource.manager, organizationId, userId);
    if (!user) throw AppError.notFound();
    return user;
  }

  /** The user if it is an active member of the organization, else undefined. */
  findMember(organizationId: string, userId: string): Promise<UserRow | undefined> {
    return this.agents.find(this.dataSource.manager, organizationId, userId);
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
  ): Promise<UserRow> {
    if (agentUserId !== undefined) {
      const user = await this.agents.find(manager, organizationId, String(agentUserId));
      if (!user)
        throw AppError.invalid(
          'agent_user_id',
          'The selected agent_user_id is not an agent of this organization.',
        );
      return user;
    }
    const creator = keyCreatorId
      ? await this.agents.find(manager, organizationId, keyCreatorId)
      : undefined;
    if (!creator) {
      throw AppError.invalid(
        'agent_user_id',
        'The agent_user_id field is required: the user who created this API key is no longer in the organization.',
      );
    }
    return creator;
  }

  page(
    organizationId: string,
    filter: { role?: Role; oldestFirst?: boolean },
    page: { perPage: number; offset: number },
  ) {
    return this.agents.page(organizationId, filter, page);
  }

  invite(
    actor: AgentPrincipal,
    input: { name: string; email: string; password: string; role: Role },
  ) {
    if (input.role === 'owner' && actor.role !== 'owner') {
      throw AppError.forbidden('Only an owner can add another owner.');
    }
    return this.dataSource.transaction((manager) =>
      this.create(manager, actor.organizationId, input),
    );
  }

  async update(
    actor: AgentPrincipal,
    userId: string,
    changes: { name?: string; role?: Role },
  ): Promise<UserRow> {
    let roleChanged = false;
    const updated = await this.dataSource.transaction(async (manager) => {
      const owners = await this.agents.lockOwners(manager, actor.organizationId);
      const target = await this.agents.find(manager, actor.organizationId, userId);
      if (!target) throw AppError.notFound();
      if (changes.role && changes.role !== target.role) {
        roleChanged = true;
        if ((target.role === 'owner' || changes.role === 'owner') && actor.role !== 'owner') {
          throw AppError.forbidden('Only an owner can grant or take away the owner role.');
        }
        if (target.role === 'owner' && owners.length === 1) {
          throw AppError.invalid('role', 'The last owner of the organization cannot be demoted.');
        }
      }
      const row = await this.agents.update(manager, actor.organizationId, userId, changes);
      if (!row) throw AppError.notFound();
      return row;
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
        if (actor.role !== 'owner') throw AppError.forbidden('Only an owner can remove an owner.');
        if (owners.length === 1)
          throw AppError.conflict('The last owner of the organization cannot be removed.');
      }
      await this.agents.remove(manager, actor.organizationId, userId);
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
  connected(organizationId: string, userId: string) {
    return this.changePresence(organizationId, userId, { status: null, awayChosen: null });
  }

  /** The agent's last socket closed: `offline`, keeping the member's choice for the next connect. */
  disconnected(organizationId: string, userId: string) {
    return this.changePresence(organizationId, userId, { status: 'offline', awayChosen: null });
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

  /** Whether any agent of the organization is online now. */
  anyOnline(organizationId: string): Promise<boolean> {
    return this.agents.anyOnline(organizationId);
  }
}
