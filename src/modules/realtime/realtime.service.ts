import { Injectable } from '@nestjs/common';
import type { Namespace } from 'socket.io';
import type { AgentPushes, SharedEvent, WidgetPushes } from './socket-events';

/** The Socket.IO rooms events are pushed to. */
export const rooms = {
  visitor: (visitorId: string | number) => `visitor:${visitorId}`,
  organization: (organizationId: string | number) => `organization:${organizationId}`,
  agent: (userId: string | number) => `agent:${userId}`,
  session: (sessionId: string | number) => `session:${sessionId}`,
  /** Every widget socket of the organization's sites (`/widget`): agent availability. */
  widgets: (organizationId: string | number) => `widgets:${organizationId}`,
};

/** What the two sides of a chat hear about a conversation. */
export interface ConversationPush {
  organizationId: string;
  visitorId: string;
  conversationId: string;
}

/**
 * Pushes chat events to connected widgets (`/widget`, one room per visitor) and agents (`/agent`,
 * one room per organization). With the Redis adapter a push reaches sockets on every instance.
 * Pushes are best effort and happen after the commit; a client that missed one catches up by
 * asking for everything after a message id (`sync`, or the HTTP `after_id`); as ids need not
 * become visible in their order, the clients ask from a minute back (web/shared/catch-up.ts).
 * Until the gateways attach their namespaces (the CLI, the OpenAPI preview) pushes go nowhere.
 * Every event and its payload are in `socket-events.ts`, which the web apps import too.
 */
@Injectable()
export class RealtimeService {
  private readonly namespaces: { widget?: Namespace; agent?: Namespace } = {};

  attach(name: 'widget' | 'agent', namespace: Namespace): void {
    this.namespaces[name] = namespace;
  }

  toVisitor<E extends keyof WidgetPushes>(
    visitorId: string,
    event: E,
    data: WidgetPushes[E],
  ): void {
    this.namespaces.widget?.to(rooms.visitor(visitorId)).emit(event, data);
  }

  toOrganization<E extends keyof AgentPushes>(
    organizationId: string,
    event: E,
    data: AgentPushes[E],
  ): void {
    this.namespaces.agent?.to(rooms.organization(organizationId)).emit(event, data);
  }

  /** An event every connected widget of the organization hears. */
  toOrganizationWidgets<E extends keyof WidgetPushes>(
    organizationId: string,
    event: E,
    data: WidgetPushes[E],
  ): void {
    this.namespaces.widget?.to(rooms.widgets(organizationId)).emit(event, data);
  }

  /** An event both sides of the conversation see. */
  toBothSides<E extends SharedEvent>(
    push: ConversationPush,
    event: E,
    data: AgentPushes[E] & WidgetPushes[E],
  ): void {
    this.toVisitor(push.visitorId, event, data);
    this.toOrganization(push.organizationId, event, data);
  }

  /**
   * Closes every socket of this agent, on every instance (the Redis adapter carries the command):
   * after removal from the team, a role change or the end of all its sessions.
   */
  disconnectAgent(userId: string): void {
    this.namespaces.agent?.in(rooms.agent(userId)).disconnectSockets(true);
  }

  /** Closes every socket of this visitor, on every instance (the visitor ended its session). */
  disconnectVisitor(visitorId: string): void {
    this.namespaces.widget?.in(rooms.visitor(visitorId)).disconnectSockets(true);
  }

  /** Closes the sockets opened with these sessions' tokens, on every instance. */
  disconnectSessions(sessionIds: string[]): void {
    if (sessionIds.length === 0) return;
    this.namespaces.agent?.in(sessionIds.map(rooms.session)).disconnectSockets(true);
  }

  /**
   * Before this instance stops: drops the connection under every socket connected here. A
   * Socket.IO client reconnects by itself after a lost transport (it would not after a server
   * `disconnect`), and with this instance no longer listening its load balancer sends the new
   * connection to another instance; the widget and the dashboard then `sync` what they missed.
   * Answers how many sockets were told.
   */
  reconnectElsewhere(): number {
    let told = 0;
    for (const namespace of [this.namespaces.widget, this.namespaces.agent]) {
      for (const socket of namespace?.sockets.values() ?? []) {
        socket.conn.close();
        told += 1;
      }
    }
    return told;
  }

  /** Sockets connected to this instance, per namespace (the metrics). */
  localSockets(): { widget: number; agent: number } {
    return {
      widget: this.namespaces.widget?.sockets.size ?? 0,
      agent: this.namespaces.agent?.sockets.size ?? 0,
    };
  }

  /** How many sockets of this agent are connected, on every instance. */
  async agentSockets(userId: string): Promise<number> {
    const sockets = await this.namespaces.agent?.in(rooms.agent(userId)).fetchSockets();
    return sockets?.length ?? 0;
  }

  /** How many widget sockets of this visitor are connected, on every instance. */
  async visitorSockets(visitorId: string): Promise<number> {
    const sockets = await this.namespaces.widget?.in(rooms.visitor(visitorId)).fetchSockets();
    return sockets?.length ?? 0;
  }
}
