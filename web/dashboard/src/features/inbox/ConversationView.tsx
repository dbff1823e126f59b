import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  MultiSelect,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconStar, IconUser } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  type Agent,
  type Member,
  type ConversationDetail,
  type Message,
  type UnreadCounts,
  useConversation,
} from '../../api/queries';
import { keys } from '../../api/keys';
import { agentChannel } from '../../api/socket';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import { Composer } from './Composer';
import { AssignMenu } from './AssignMenu';
import { SnoozeMenu } from './SnoozeMenu';
import { MacroMenu, MacroOutcome, useRunMacro } from './MacroMenu';
import { LabelDot } from './LabelDot';
import { ConversationTickets, CreateTicketFromChat, draftFromChat } from './ConversationTickets';
import { Thread } from './Thread';
import { useConversationActions } from './use-conversation-actions';
import { reviewText, STATUS_COLOR, visitorName } from './names';
import { useShortcuts } from '../../app/useShortcuts';

export function ConversationView({
  id,
  me,
  team,
  onShowVisitor,
}: {
  id: number;
  me: Agent;
  team: Member[];
  /** Where the visitor panel has no room beside the chat (tablets, phones): opens it. */
  onShowVisitor?: () => void;
}) {
  const queryClient = useQueryClient();
  const conversation = useConversation(id);
  const data = conversation.data;
  const [visitorTyping, setVisitorTyping] = useState(false);
  const [seenUpTo, setSeenUpTo] = useState(0);

  useEffect(() => {
    const offTyping = agentChannel.on('typing', (event) => {
      if (event.conversation_id === id && event.sender_type === 'visitor') {
        setVisitorTyping(event.is_typing);
      }
    });
    const offRead = agentChannel.on('read', (event) => {
      if (event.conversation_id === id && event.reader === 'visitor') {
        setSeenUpTo((old) => Math.max(old, event.message_id));
      }
    });
    const offMessage = agentChannel.on('message.created', (message) => {
      if (message.conversation_id === id && message.sender_type === 'visitor') {
        setVisitorTyping(false);
      }
    });
    return () => {
      offTyping();
      offRead();
      offMessage();
    };
  }, [id]);

  // Reading the conversation: tell the visitor (read receipt) and clear its unread count.
  const lastId = data?.messages.at(-1)?.id;
  useEffect(() => {
    if (lastId === undefined) return;
    agentChannel.saw(lastId);
    agentChannel.read(id, lastId);
    queryClient.setQueryData<UnreadCounts>(keys.unread.all, (old = {}) => {
      if (!old[id]) return old;
      const { [id]: _, ...rest } = old;
      return rest;
    });
  }, [id, lastId, queryClient]);

  const { assign, close, reopen, labels, setLabels } = useConversationActions(id);
  const replyRef = useRef<HTMLTextAreaElement>(null);
  const [snoozeOpen, setSnoozeOpen] = useState(false);
  const runMacro = useRunMacro(id);
  const labelsRef = useRef<HTMLInputElement>(null);
  const closed = data?.status === 'closed';
  useShortcuts([
    ['r', () => replyRef.current?.focus()],
    ['a', () => assign.mutate(me.id)],
    ['c', () => close.mutate()],
    ['l', () => labelsRef.current?.focus()],
    ['z', () => !closed && setSnoozeOpen(true)],
  ]);

  if (conversation.isPending) {
    return (
      <Center style={{ flex: 1 }}>
        <Loader role="status" aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (!data) {
    return (
      <Alert color="red" m="md" role="alert">
        {t('inbox.conversation.error')}
      </Alert>
    );
  }
  const name = visitorName(data.visitor);
  const assignee = team.find((agent) => agent.id === data.assigned_agent_id);

  return (
    <Box
      component="section"
      aria-label={t('inbox.conversation.label', { name })}
      style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
    >
      <Group
        justify="space-between"
        align="flex-start"
        px="md"
        py="sm"
        gap="xs"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Stack gap={4} style={{ minWidth: 220, flex: 1 }}>
          <Title order={2} size="h4" lineClamp={1}>
            {name}
          </Title>
          <Group gap="xs">
            <Badge size="sm" variant="light" color={STATUS_COLOR[data.status]}>
              {t(`inbox.status.${data.status}`)}
            </Badge>
            <Text size="xs" c="dimmed">
              {assignee
                ? t('inbox.action.assignedTo', { name: assignee.name })
                : t('inbox.action.unassigned')}
            </Text>
            {data.snoozed_until && (
              <Badge size="sm" variant="light" color="grape">
                {t('inbox.snooze.badge', { time: longTime(data.snoozed_until) })}
              </Badge>
            )}
          </Group>
          <MultiSelect
            ref={labelsRef}
            label={<VisuallyHidden>{t('inbox.labels.label')}</VisuallyHidden>}
            placeholder={data.labels.length ? undefined : t('inbox.labels.placeholder')}
            size="xs"
            maw={360}
            data={labels.map((label) => ({ value: String(label.id), label: label.name }))}
            renderOption={({ option }) => (
              <Group gap="xs" wrap="nowrap">
                <LabelDot
                  color={labels.find((label) => String(label.id) === option.value)?.color ?? ''}
                />
                {option.label}
              </Group>
            )}
            value={data.labels.map((label) => String(label.id))}
            onChange={(values) => setLabels.mutate(values.map(Number))}
            nothingFoundMessage={t('inbox.labels.none')}
            searchable
            clearable
            maxDropdownHeight={240}
          />
        </Stack>
        <Group gap="xs" wrap="wrap" justify="flex-end">
          {onShowVisitor && (
            <Button
              variant="default"
              size="sm"
              leftSection={<IconUser size={16} />}
              onClick={onShowVisitor}
            >
              {t('inbox.panel.show')}
            </Button>
          )}
          <AssignMenu
            conversationId={id}
            me={me}
            team={team}
            assignedId={data.assigned_agent_id}
            closed={closed}
            assign={assign}
          />
          <MacroMenu run={runMacro} />
          <SnoozeMenu
            conversationId={id}
            snoozedUntil={data.snoozed_until}
            disabled={closed}
            open={snoozeOpen}
            onOpenChange={setSnoozeOpen}
          />
          <CreateTicketFromChat
            conversationId={id}
            team={team}
            draft={() => draftFromChat(data.messages, data.visitor)}
          />
          {closed ? (
            <Button
              variant="light"
              size="sm"
              leftSection={<IconArrowBackUp size={16} />}
              onClick={() => reopen.mutate()}
              loading={reopen.isPending}
            >
              {t('inbox.action.reopen')}
            </Button>
          ) : (
            <Button
              variant="light"
              color="gray"
              size="sm"
              leftSection={<IconCheck size={16} />}
              onClick={() => close.mutate()}
              loading={close.isPending}
            >
              {t('inbox.action.close')}
            </Button>
          )}
        </Group>
      </Group>
      {data.rating !== null && (
        <Group
          gap="xs"
          px="md"
          py={6}
          wrap="nowrap"
          role="note"
          aria-label={t('inbox.review.label')}
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <IconStar size={16} aria-hidden color="var(--mantine-color-yellow-7)" />
          <Text size="sm">{reviewText(data.rating, data.review_comment)}</Text>
        </Group>
      )}
      <ConversationTickets conversationId={id} />
      <MacroOutcome run={runMacro} />
      {reopen.error && (
        <Text c="red" size="sm" px="md" pt="xs" role="alert">
          {reopen.error instanceof ApiError && reopen.error.status === 409
            ? t('inbox.action.reopenConflict')
            : t('inbox.action.reopenFailed')}
        </Text>
      )}
      <Thread
        conversationId={id}
        hasEarlier={data.has_earlier_messages}
        messages={data.messages}
        visitor={name}
        me={me}
        team={team}
        seenUpTo={seenUpTo}
        typing={visitorTyping}
      />
      <Composer
        conversationId={id}
        closed={closed}
        textareaRef={replyRef}
        onSent={(message) => appendMessage(queryClient, id, message)}
      />
    </Box>
  );
}

function appendMessage(
  queryClient: ReturnType<typeof useQueryClient>,
  id: number,
  message: Message,
): void {
  queryClient.setQueryData<ConversationDetail>(keys.conversations.one(id), (old) =>
    !old || old.messages.some((m) => m.id === message.id)
      ? old
      : { ...old, messages: [...old.messages, message] },
  );
}
