import { Injectable } from '@nestjs/common';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import type { PageRequest } from '../../common/http/pagination';
import type { ConversationStatus } from './conversations.repository';
import { InboxRepository } from './inbox.repository';

/** The dashboard's inbox views over the conversations list. */
@Injectable()
export class InboxService {
  constructor(private readonly inbox: InboxRepository) {}

  list(
    agent: AgentPrincipal,
    query: {
      status?: ConversationStatus;
      site_id?: number;
      assigned_agent_id?: string;
      unassigned?: boolean;
      label?: string;
      sort?: 'newest' | 'activity';
      snoozed?: boolean;
    },
    page: PageRequest,
  ) {
    return this.inbox.page(
      agent.organizationId,
      {
        status: query.status,
        siteId: query.site_id,
        assignedAgentId: query.unassigned ? '0' : assigneeOf(agent, query.assigned_agent_id),
        label: query.label,
        sort: query.sort ?? 'newest',
        snoozed: query.snoozed ?? false,
      },
      page,
    );
  }

  async labelsOf(organizationId: string, conversationId: string) {
    const labels = await this.inbox.labelsOf(organizationId, conversationId);
    return labels.map((label) => ({ ...label, id: Number(label.id) }));
  }
}

/** `me` is the caller, `none` nobody (0), digits an agent id. */
/** Kept as a string: a JavaScript number cannot hold every bigint id. */
function assigneeOf(agent: AgentPrincipal, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === 'me') return agent.userId;
  if (value === 'none') return '0';
  return value;
}
