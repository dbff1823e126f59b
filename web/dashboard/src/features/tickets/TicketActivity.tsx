import { Paper, Text, Timeline, Title } from '@mantine/core';
import type { Member, Ticket } from '../../api/queries';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import { priorityOptions, statusOptions } from './options';

type Line = Ticket['activity'][number];

/** A ticket's history: who filed it and changed its status, priority or assignee, and when. */
export function TicketActivity({ activity, team }: { activity: Line[]; team: Member[] }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="ticket-activity">
      <Title order={2} size="h5" id="ticket-activity" mb="md">
        {t('tickets.activity.title')}
      </Title>
      <Timeline bulletSize={12} lineWidth={2} active={activity.length - 1}>
        {activity.map((line) => (
          <Timeline.Item key={line.id} title={<Text size="sm">{describe(line, team)}</Text>}>
            <Text size="xs" c="dimmed">
              {longTime(line.created_at)}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Paper>
  );
}

function describe(line: Line, team: Member[]): string {
  const who = actor(line, team);
  switch (line.kind) {
    case 'created':
      return t('tickets.activity.created', { who });
    case 'status':
      return t('tickets.activity.status', {
        who,
        from: valueOf('status', line.from),
        to: valueOf('status', line.to),
      });
    case 'priority':
      return t('tickets.activity.priority', {
        who,
        from: valueOf('priority', line.from),
        to: valueOf('priority', line.to),
      });
    case 'assignee':
      return line.to === null
        ? t('tickets.activity.unassigned', { who })
        : t('tickets.activity.assigned', { who, agent: memberName(line.to, team) });
  }
}

function actor(line: Line, team: Member[]): string {
  switch (line.actor_type) {
    case 'agent':
      return line.actor_id === null ? t('tickets.detail.agent') : memberName(line.actor_id, team);
    case 'api':
      return line.actor_id === null
        ? t('tickets.activity.integration')
        : t('tickets.activity.viaApi', { agent: memberName(line.actor_id, team) });
    case 'customer':
      return t('tickets.detail.visitorAuthor');
    case 'system':
      return t('tickets.detail.system');
  }
}

const memberName = (id: number | string, team: Member[]) =>
  team.find((member) => member.id === Number(id))?.name ?? t('tickets.detail.agent');

/** A status or priority in words (an unknown value as the API wrote it). */
function valueOf(field: 'status' | 'priority', value: string | null): string {
  if (value === null) return '—';
  const options = field === 'status' ? statusOptions : priorityOptions;
  return options.find((option) => option.value === value)?.label ?? value;
}
