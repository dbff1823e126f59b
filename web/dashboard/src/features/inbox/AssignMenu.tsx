import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import type { Agent, Member } from '../../api/queries';
import { t } from '../../i18n';
import { HandOverDialog } from './HandOverDialog';
import type { useConversationActions } from './use-conversation-actions';

/** Assign to me or a colleague, hand over with a note, or unassign. */
export function AssignMenu(props: {
  conversationId: number;
  me: Agent;
  team: Member[];
  assignedId: number | null;
  closed: boolean;
  assign: ReturnType<typeof useConversationActions>['assign'];
}) {
  const { conversationId: id, me, team, closed, assign } = props;
  const [handOver, setHandOver] = useState(false);
  return (
    <>
      <Menu position="bottom-end" withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button
            variant="default"
            size="sm"
            leftSection={<IconUserPlus size={16} />}
            rightSection={<IconChevronDown size={14} />}
            loading={assign.isPending}
            disabled={closed}
          >
            {t('inbox.action.assign')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => assign.mutate(me.id)}>{t('inbox.action.assignMe')}</Menu.Item>
          {team
            .filter((agent) => agent.id !== me.id)
            .map((agent) => (
              <Menu.Item key={agent.id} onClick={() => assign.mutate(agent.id)}>
                {t('inbox.action.assignTo', { name: agent.name })}
              </Menu.Item>
            ))}
          <Menu.Divider />
          <Menu.Item onClick={() => setHandOver(true)}>{t('inbox.handOver.menu')}</Menu.Item>
          {props.assignedId !== null && (
            <Menu.Item onClick={() => assign.mutate(null)}>{t('inbox.action.unassign')}</Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <HandOverDialog
        conversationId={id}
        me={me}
        team={team}
        opened={handOver}
        onClose={() => setHandOver(false)}
      />
    </>
  );
}
