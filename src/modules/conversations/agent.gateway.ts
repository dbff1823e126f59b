import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayDisconnect,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Namespace, Socket } from 'socket.io';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { AgentsService } from '../agents/agents.service';
import { AuthService } from '../auth/auth.service';
import { readSessionCookie } from '../auth/session-cookie';
import { messagePush } from './chat-pushes';
import { ConversationsService } from './conversations.service';
import { rooms, RealtimeService } from '../realtime/realtime.service';
import { answer, booleanField, handshakeToken, idField } from '../realtime/socket-answers';
import { guardSocket } from '../realtime/socket-guard';
import { AppConfig } from '../../config/app-config';

/**
 * `/agent`: the inbox's live channel, authenticated by an agent token (in `auth.token`). The
 * agent hears every conversation of its organization (`message.created`,
 * `conversation.updated`, `typing`, `read`) and sends `typing`, `read` and `sync`. Connecting
 * sets the agent `online`; the last of its sockets (on any instance) going away sets `offline`.
 * A socket lives as long as its session and its agent's place and role in the team (socket-guard).
 */
@WebSocketGateway({ namespace: '/agent', cors: { origin: true } })
export class AgentGateway implements OnGatewayInit, OnGatewayDisconnect {
  private readonly logger = new Logger(AgentGateway.name);

  constructor(
    private readonly auth: AuthService,
    private readonly agents: AgentsService,
    private readonly conversations: ConversationsService,
    private readonly realtime: RealtimeService,
    private readonly config: AppConfig,
  ) {}

  afterInit(namespace: Namespace): void {
    this.realtime.attach('agent', namespace);
    namespace.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (error: unknown) => {
          this.logger.debug({ msg: 'agent socket refused', err: String(error) });
          next(new Error('Unauthenticated.'));
        },
      );
    });
  }

  private async authenticate(socket: Socket): Promise<void> {
    const token = handshakeToken(socket.handshake) ?? this.dashboardCookie(socket.handshake);
    const agent = token ? await this.auth.authenticate(token) : undefined;
    if (!agent) throw new Error('no valid agent token');
    // The organization requires two-factor authentication this member has not set up yet.
    if (agent.twoFactorMissing) throw new Error('two-factor authentication required');
    (socket.data as { agent?: AgentPrincipal }).agent = agent;
    await socket.join([
      rooms.organization(agent.organizationId),
      rooms.agent(agent.userId),
      rooms.session(agent.sessionId),
    ]);
    guardSocket(socket, {
      perSecond: this.config.env.SOCKET_EVENTS_PER_SECOND,
      burst: this.config.env.SOCKET_EVENT_BURST,
      stillValid: () => this.auth.stillValid(agent),
      endsAt: () => this.auth.sessionEndsAt(agent),
      initialEnd: agent.sessionEndsAt ?? new Date(),
    });
    await this.agents.connected(agent.organizationId, agent.userId);
  }

  /**
   * The dashboard's session cookie (HttpOnly, so the page cannot hand it over as `auth.token`),
   * taken only from a handshake opened by a page of the dashboard's origins (PUBLIC_URL,
   * DASHBOARD_ORIGINS), as for cookie requests over HTTP: another site's page would otherwise
   * ride on the agent's cookie (cross-site WebSocket hijacking).
   */
  private dashboardCookie(handshake: Socket['handshake']): string | undefined {
    const origin = handshake.headers.origin;
    if (!origin || !this.config.agentOrigins.has(origin)) return undefined;
    return readSessionCookie(handshake);
  }

  async handleDisconnect(socket: Socket): Promise<void> {
    const agent = (socket.data as { agent?: AgentPrincipal }).agent;
    if (!agent) return;
    try {
      if ((await this.realtime.agentSockets(agent.userId)) === 0) {
        await this.agents.disconnected(agent.organizationId, agent.userId);
      }
    } catch (error) {
      this.logger.warn({ msg: 'presence not updated on disconnect', err: String(error) });
    }
  }

  @SubscribeMessage('typing')
  typing(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      await this.conversations.typing(
        agentOf(socket).organizationId,
        idField(payload, 'conversation_id') as string,
        booleanField(payload, 'is_typing'),
      );
      return {};
    });
  }

  @SubscribeMessage('read')
  read(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      const read = await this.conversations.markRead(
        agentOf(socket).organizationId,
        idField(payload, 'conversation_id') as string,
        idField(payload, 'message_id') as string,
      );
      return { conversation_id: Number(read.conversationId), message_id: Number(read.position) };
    });
  }

  /** Everything after `after_id`, of one conversation or (without `conversation_id`) of all. */
  @SubscribeMessage('sync')
  sync(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      const rows = await this.conversations.messagesAfter(
        agentOf(socket).organizationId,
        idField(payload ?? {}, 'conversation_id', { optional: true }),
        idField(payload ?? {}, 'after_id', { optional: true }) ?? '0',
      );
      return { data: rows.map(messagePush) };
    });
  }
}

const agentOf = (socket: Socket): AgentPrincipal =>
  (socket.data as { agent: AgentPrincipal }).agent;
