import { AppError } from '../../common/errors/app-error';
import type { AgentsService } from '../agents/agents.service';

/** The id of an active member of the organization to assign, or 422 on `assigned_agent_id`. */
export async function assigneeOf(
  agents: AgentsService,
  organizationId: string,
  agentId: number,
): Promise<string> {
  const agent = await agents.findMember(organizationId, String(agentId));
  if (!agent) {
    throw AppError.invalid(
      'assigned_agent_id',
      'The selected assigned_agent_id is not an agent of this organization.',
      'agent_not_in_organization',
    );
  }
  return agent.id;
}
