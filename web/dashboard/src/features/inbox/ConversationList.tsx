import { Badge, Box, Center, Group, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Conversation } from '../../api/queries';
import { shortTime } from '../../components/format';
import { t } from '../../i18n';
import { STATUS_COLOR, visitorName } from './names';
import classes from './inbox.module.css';
import { LabelDot } from './LabelDot';

export function ConversationList(props: {
  conversations: Conversation[] | undefined;
  loading: boolean;
  error: boolean;
  selectedId: number | undefined;
  search: string;
}) {
  const { conversations, selectedId } = props;
  if (props.loading) {
    return (
      <Center p="xl">
        <Loader size="sm" role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (props.error) {
    return (
      <Text c="red" p="md" role="alert">
        {t('inbox.list.error')}
      </Text>
    );
  }
  if (!conversations?.length) {
    return (
      <Stack align="center" gap={4} p="xl" c="dimmed">
        <IconInbox size={32} stroke={1.4} aria-hidden />
        <Text fw={500}>{t('inbox.list.empty')}</Text>
        <Text size="sm" ta="center">
          {t('inbox.list.emptyHint')}
        </Text>
      </Stack>
    );
  }
  return (
    <ScrollArea style={{ flex: 1 }} type="auto">
      <Box component="ul" aria-label={t('inbox.list.label')} className={classes.list}>
        {conversations.map((conversation) => {
          const name = visitorName(conversation.visitor);
          const selected = conversation.id === selectedId;
          const count = selected ? 0 : conversation.unread_count;
          return (
            <li key={conversation.id}>
              <Link
                to={`/inbox/${conversation.id}${props.search}`}
                className={classes.item}
                data-selected={selected || undefined}
                aria-current={selected ? 'true' : undefined}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text fw={count > 0 ? 700 : 500} size="sm" truncate>
                    {name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {shortTime(conversation.last_message_at ?? conversation.started_at)}
                  </Text>
                </Group>
                {conversation.last_message && (
                  <Text size="xs" c="dimmed" truncate mt={2}>
                    {conversation.last_message.body}
                  </Text>
                )}
                <Group justify="space-between" wrap="nowrap" gap="xs" mt={4}>
                  <Group gap={4} wrap="nowrap" style={{ minWidth: 0, overflow: 'hidden' }}>
                    <Badge size="xs" variant="light" color={STATUS_COLOR[conversation.status]}>
                      {t(`inbox.status.${conversation.status}`)}
                    </Badge>
                    {conversation.labels.map((label) => (
                      <Badge
                        key={label.id}
                        size="xs"
                        variant="outline"
                        color="gray"
                        leftSection={<LabelDot color={label.color} />}
                      >
                        {label.name}
                      </Badge>
                    ))}
                  </Group>
                  {count > 0 && (
                    <Badge size="sm" circle color="indigo">
                      <span aria-hidden>{count}</span>
                      <span className={classes.srOnly}>{t('inbox.list.unread', { count })}</span>
                    </Badge>
                  )}
                </Group>
              </Link>
            </li>
          );
        })}
      </Box>
    </ScrollArea>
  );
}
