import type { Member, Ticket } from '../../api/queries';
import { t } from '../../i18n';

export const STATUSES = ['open', 'pending', 'in_progress', 'resolved', 'closed'] as const;
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export const statusOptions = STATUSES.map((value) => ({
  value,
  label: t(`tickets.status.${value}`),
}));
export const priorityOptions = PRIORITIES.map((value) => ({
  value,
  label: t(`tickets.priority.${value}`),
}));
export const agentOptions = (team: Member[]) =>
  team.map((agent) => ({ value: String(agent.id), label: agent.name }));

export const STATUS_COLOR: Record<Ticket['status'], string> = {
  open: 'blue',
  pending: 'yellow',
  in_progress: 'indigo',
  resolved: 'teal',
  closed: 'gray',
};
export const PRIORITY_COLOR: Record<Ticket['priority'], string> = {
  low: 'gray',
  normal: 'blue',
  high: 'orange',
  urgent: 'red',
};
