import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  type OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Namespace, Socket } from 'socket.io';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { WidgetSessionService } from '../auth/widget-session.service';
import { messagePush } from './chat-pushes';
import { VisitorChatService } from './visitor-chat.service';
import { originAllowed, sameOrigin } from '../sites/allowed-origins';
import { OrganizationsService } from '../organizations/organizations.service';
import { SitesService } from '../sites/sites.service';
import { rooms, RealtimeService } from '../realtime/realtime.service';
import { MAX_ATTACHMENTS_PER_MESSAGE } from '../attachments/attachments.service';
import {
  answer,
  booleanField,
  handshakeToken,
  idField,
  messageContent,
  textField,
} from '../realtime/socket-answers';
import { guardSocket } from '../realtime/socket-guard';
import { AppConfig } from '../../config/app-config';
import { VisitorsService } from '../visitors/visitors.service';

/**
 * `/widget`: a visitor's live channel, authenticated by the session token from `init` (in
 * `auth.token`). The server pushes `message.created`, `conversation.updated`, `typing`, `read` and
 * `agents.availability` (`agents_online`, when it changes);
 * the widget sends `message`, `typing`, `read`, `sync` (everything after the last id it saw) and
 * `page` (the host page the visitor moved to: the agents' panel follows it live).
 */
@WebSocketGateway({ namespace: '/widget', cors: { origin: true } })
export class WidgetGateway implements OnGatewayInit {
  private readonly logger = new Logger(WidgetGateway.name);
  private readonly activeSites = new Map<string, number>();

  constructor(
    private readonly sessions: WidgetSessionService,
    private readonly sites: SitesService,
    private readonly organizations: OrganizationsService,
    private readonly chat: VisitorChatService,
    private readonly realtime: RealtimeService,
    private readonly config: AppConfig,
    private readonly visitors: VisitorsService,
  ) {}

  afterInit(namespace: Namespace): void {
    this.realtime.attach('widget', namespace);
    namespace.use((socket, next) => {
      this.authenticate(socket).then(
        () => next(),
        (error: unknown) => {
          this.logger.debug({ msg: 'widget socket refused', err: String(error) });
          next(new Error('Unauthenticated.'));
        },
      );
    });
  }

  private async authenticate(socket: Socket): Promise<void> {
    const token = handshakeToken(socket.handshake);
    const session = token ? this.sessions.verify(token) : undefined;
    if (!session) throw new Error('no valid session token');
    const [site, live] = await Promise.all([
      this.sites.findActive(session.organizationId, session.siteId),
      this.visitors.sessionLive(session.organizationId, session.visitorId),
    ]);
    if (!site) throw new Error('site inactive');
    if (!live) throw new Error('session ended');
    this.organizations.requireActiveSubscription(await this.organizations.get(site.organizationId));
    const origin = socket.handshake.headers.origin;
    if (
      typeof origin === 'string' &&
      !sameOrigin(origin, socket.handshake.headers.host) &&
      !originAllowed(site.allowedDomains, origin)
    ) {
      throw new Error('origin not allowed');
    }
    const visitor: VisitorPrincipal = {
      organizationId: session.organizationId,
      siteId: session.siteId,
      visitorId: session.visitorId,
      allowedDomains: site.allowedDomains,
    };
    (socket.data as { visitor?: VisitorPrincipal }).visitor = visitor;
    await socket.join([rooms.visitor(session.visitorId), rooms.widgets(session.organizationId)]);
    // The token is the whole session (no server state): it ends when the token lapses, and is
    // refused once its site is switched off.
    const expiresAt = session.expiresAt;
    guardSocket(socket, {
      perSecond: this.config.env.SOCKET_EVENTS_PER_SECOND,
      burst: this.config.env.SOCKET_EVENT_BURST,
      stillValid: async () =>
        expiresAt.getTime() > Date.now() &&
        (await this.siteStillActive(session.organizationId, session.siteId)),
      endsAt: () => Promise.resolve(expiresAt.getTime() > Date.now() ? expiresAt : undefined),
      initialEnd: expiresAt,
    });
  }

  /** Whether the site is still active; a yes is believed for a second on this instance. */
  private async siteStillActive(organizationId: string, siteId: string): Promise<boolean> {
    const now = Date.now();
    if ((this.activeSites.get(siteId) ?? 0) > now) return true;
    const active = (await this.sites.findActive(organizationId, siteId)) !== undefined;
    if (active) this.activeSites.set(siteId, now + 1000);
    else this.activeSites.delete(siteId);
    if (this.activeSites.size > 10_000) this.activeSites.clear();
    return active;
  }

  @SubscribeMessage('message')
  message(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      const { message } = await this.chat.send(
        visitorOf(socket),
        messageContent(payload, 5000, MAX_ATTACHMENTS_PER_MESSAGE),
      );
      return { data: messagePush(message) };
    });
  }

  @SubscribeMessage('typing')
  typing(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      await this.chat.typing(visitorOf(socket), booleanField(payload, 'is_typing'));
      return {};
    });
  }

  @SubscribeMessage('read')
  read(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      const conversationId = idField(payload, 'conversation_id') as string;
      const position = await this.chat.markRead(
        visitorOf(socket),
        conversationId,
        idField(payload, 'message_id') as string,
      );
      return { conversation_id: Number(conversationId), message_id: Number(position) };
    });
  }

  @SubscribeMessage('page')
  page(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      const visitor = visitorOf(socket);
      const url = textField(payload, 'url', 2048);
      if (!/^https?:\/\//i.test(url)) {
        throw AppError.invalid('url', 'The url field must be a web address.', 'not_url');
      }
      const rawTitle = (payload as Record<string, unknown>).title;
      const title =
        typeof rawTitle === 'string' && rawTitle.trim() !== ''
          ? textField(payload, 'title', 500)
          : undefined;
      const rawReferrer = (payload as Record<string, unknown>).referrer;
      const referrer =
        typeof rawReferrer === 'string' && /^https?:\/\//i.test(rawReferrer)
          ? rawReferrer.slice(0, 2048)
          : undefined;
      await this.visitors.recordPage(visitor.organizationId, visitor.visitorId, {
        url,
        title,
        referrer,
      });
      this.realtime.toOrganization(visitor.organizationId, 'visitor.page', {
        visitor_id: Number(visitor.visitorId),
        url,
        title: title ?? null,
      });
      return {};
    });
  }

  @SubscribeMessage('sync')
  sync(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown) {
    return answer(async () => {
      const afterId = idField(payload ?? {}, 'after_id', { optional: true }) ?? '0';
      const rows = await this.chat.messagesAfter(visitorOf(socket), afterId);
      return { data: rows.map(messagePush) };
    });
  }
}

const visitorOf = (socket: Socket): VisitorPrincipal =>
  (socket.data as { visitor: VisitorPrincipal }).visitor;
