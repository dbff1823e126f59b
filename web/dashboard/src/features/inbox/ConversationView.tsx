import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  MultiSelect,
  ScrollArea,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowBackUp,
  IconCheck,
  IconChevronDown,
  IconStar,
  IconUserPlus,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import {
  type Agent,
  type Member,
  type ConversationDetail,
  keys,
  loadEarlierMessages,
  type Message,
  type UnreadCounts,
  useConversation,
  useLabels,
} from '../../api/queries';
import { agentChannel } from '../../api/socket';
import { shortTime } from '../../components/format';
import { t } from '../../i18n';
import { Composer } from './Composer';
import classes from './inbox.module.css';
import { reviewText, STATUS_COLOR, visitorName } from './names';
import { useShortcuts } from '../../app/useShortcuts';

export function ConversationView({ id, me, team }: { id: number; me: Agent; team: Member[] }) {
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
    queryClient.setQueryData<UnreadCounts>(keys.unread, (old = {}) => {
      if (!old[id]) return old;
      const { [id]: _, ...rest } = old;
      return rest;
    });
  }, [id, lastId, queryClient]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: keys.conversation(id) });
    void queryClient.invalidateQueries({ queryKey: keys.conversations });
  };
  /** Gives the conversation to a member, or (null) to nobody. */
  const assign = useMutation({
    mutationFn: (agentId: number | null) => {
      const path = { params: { path: { conversation: id } } };
      return unwrap(
        agentId === null
          ? api.POST('/api/agent/conversations/{conversation}/unassign', path)
          : api.POST('/api/agent/conversations/{conversation}/assign', {
              ...path,
              body: { agent_id: agentId },
            }),
      );
    },
    onSettled: refresh,
  });
  const close = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/close', {
          params: { path: { conversation: id } },
        }),
      ),
    onSettled: refresh,
  });
  const reopen = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/reopen', {
          params: { path: { conversation: id } },
        }),
      ),
    onSettled: refresh,
  });
  const labels = useLabels().data ?? [];
  const setLabels = useMutation({
    mutationFn: (labelIds: number[]) =>
      unwrap(
        api.PUT('/api/agent/conversations/{conversation}/labels', {
          params: { path: { conversation: id } },
          body: { label_ids: labelIds },
        }),
      ),
    onMutate: (labelIds) =>
      queryClient.setQueryData<ConversationDetail>(keys.conversation(id), (old) =>
        old ? { ...old, labels: labels.filter((label) => labelIds.includes(label.id)) } : old,
      ),
    onSettled: refresh,
  });
  const replyRef = useRef<HTMLTextAreaElement>(null);
  useShortcuts([
    ['r', () => replyRef.current?.focus()],
    ['a', () => assign.mutate(me.id)],
    ['c', () => close.mutate()],
  ]);

  if (conversation.isPending) {
    return (
      <Center style={{ flex: 1 }}>
        <Loader aria-label={t('app.loading')} />
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
  const closed = data.status === 'closed';

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
        wrap="nowrap"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
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
          </Group>
          <MultiSelect
            label={<VisuallyHidden>{t('inbox.labels.label')}</VisuallyHidden>}
            placeholder={data.labels.length ? undefined : t('inbox.labels.placeholder')}
            size="xs"
            maw={360}
            data={labels.map((label) => ({ value: String(label.id), label: label.name }))}
            value={data.labels.map((label) => String(label.id))}
            onChange={(values) => setLabels.mutate(values.map(Number))}
            nothingFoundMessage={t('inbox.labels.none')}
            searchable
            clearable
            maxDropdownHeight={240}
          />
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Menu position="bottom-end">
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
              <Menu.Item onClick={() => assign.mutate(me.id)}>
                {t('inbox.action.assignMe')}
              </Menu.Item>
              {team
                .filter((agent) => agent.id !== me.id)
                .map((agent) => (
                  <Menu.Item key={agent.id} onClick={() => assign.mutate(agent.id)}>
                    {t('inbox.action.assignTo', { name: agent.name })}
                  </Menu.Item>
                ))}
              {data.assigned_agent_id !== null && (
                <>
                  <Menu.Divider />
                  <Menu.Item onClick={() => assign.mutate(null)}>
                    {t('inbox.action.unassign')}
                  </Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
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

/** How near the bottom (in pixels) still counts as reading the newest messages. */
const BOTTOM_SLACK_PX = 48;

function appendMessage(
  queryClient: ReturnType<typeof useQueryClient>,
  id: number,
  message: Message,
): void {
  queryClient.setQueryData<ConversationDetail>(keys.conversation(id), (old) =>
    !old || old.messages.some((m) => m.id === message.id)
      ? old
      : { ...old, messages: [...old.messages, message] },
  );
}

function Thread(props: {
  conversationId: number;
  hasEarlier: boolean;
  messages: Message[];
  visitor: string;
  me: Agent;
  team: Member[];
  seenUpTo: number;
  typing: boolean;
}) {
  const queryClient = useQueryClient();
  const viewport = useRef<HTMLDivElement>(null);
  const count = props.messages.length;
  const firstId = props.messages[0]?.id;
  const last = props.messages.at(-1);
  const lastId = last?.id;
  // Follow the newest message as messages arrive while the agent is at the bottom (or sent it);
  // an agent reading further up stays where they are and is offered the way down instead.
  const atBottom = useRef(true);
  const [newBelow, setNewBelow] = useState(0);
  const toBottom = () => {
    const el = viewport.current;
    if (el) el.scrollTop = el.scrollHeight;
    setNewBelow(0);
  };
  const seenLast = useRef(lastId);
  const lastMine = last?.sender_type === 'agent' && last.sender_id === props.me.id;
  useEffect(() => {
    const arrived = lastId !== seenLast.current;
    seenLast.current = lastId;
    if (atBottom.current || (arrived && lastMine)) toBottom();
    else if (arrived) setNewBelow((n) => n + 1);
  }, [lastId, lastMine, props.typing]);

  // Scrolling back: the page before the oldest message, the view kept where it was.
  const [earlier, setEarlier] = useState<'idle' | 'loading' | 'error'>('idle');
  const fromBottom = useRef<number | null>(null);
  const lastY = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = viewport.current;
    if (el && fromBottom.current !== null) el.scrollTop = el.scrollHeight - fromBottom.current;
    fromBottom.current = null;
  }, [firstId]);
  const loadEarlier = () => {
    const el = viewport.current;
    if (!props.hasEarlier || earlier === 'loading' || firstId === undefined || !el) return;
    setEarlier('loading');
    loadEarlierMessages(queryClient, props.conversationId, firstId, () => {
      fromBottom.current = el.scrollHeight - el.scrollTop;
    }).then(
      () => setEarlier('idle'),
      () => setEarlier('error'),
    );
  };

  const lastSeenAgent = [...props.messages]
    .reverse()
    .find((m) => m.sender_type === 'agent' && m.id <= props.seenUpTo)?.id;

  return (
    <Box pos="relative" className={classes.thread}>
      <ScrollArea
        h="100%"
        viewportRef={viewport}
        // Scrollable from the keyboard too (arrow keys, Page Up) once it holds nothing focusable.
        viewportProps={{ tabIndex: 0 }}
        type="auto"
        onScrollPositionChange={({ y }) => {
          // Only the agent scrolling up near the top (not the thread opening at the bottom).
          const up = lastY.current !== null && y < lastY.current;
          lastY.current = y;
          const el = viewport.current;
          atBottom.current = !el || el.scrollHeight - y - el.clientHeight < BOTTOM_SLACK_PX;
          if (atBottom.current && newBelow > 0) setNewBelow(0);
          if (up && y < 80 && earlier === 'idle') loadEarlier();
        }}
      >
        <Stack
          gap={6}
          p="md"
          role="log"
          aria-live="polite"
          aria-label={t('inbox.conversation.messages')}
          aria-busy={earlier === 'loading' || undefined}
        >
          {props.hasEarlier && (
            <Center>
              <Button
                variant="subtle"
                size="xs"
                onClick={loadEarlier}
                loading={earlier === 'loading'}
              >
                {t('inbox.conversation.earlier')}
              </Button>
            </Center>
          )}
          {earlier === 'error' && (
            <Text size="sm" c="red" ta="center" role="alert">
              {t('inbox.conversation.earlierError')}
            </Text>
          )}
          {count === 0 && (
            <Text c="dimmed" ta="center" size="sm">
              {t('inbox.conversation.empty')}
            </Text>
          )}
          {props.messages.map((message) => (
            <MessageBubble
              key={message.id}
              message={message}
              author={author(message, props)}
              seen={message.id === lastSeenAgent}
            />
          ))}
          {props.typing && (
            <Text size="xs" c="dimmed" fs="italic">
              {t('inbox.conversation.typing', { name: props.visitor })}
            </Text>
          )}
        </Stack>
      </ScrollArea>
      {newBelow > 0 && (
        <Button
          className={classes.newBelow}
          size="xs"
          radius="xl"
          rightSection={<IconArrowDown size={14} aria-hidden />}
          onClick={toBottom}
        >
          {newBelow === 1
            ? t('inbox.conversation.newBelowOne')
            : t('inbox.conversation.newBelowOther', { count: newBelow })}
        </Button>
      )}
    </Box>
  );
}

function author(message: Message, props: { visitor: string; me: Agent; team: Member[] }): string {
  switch (message.sender_type) {
    case 'visitor':
      return props.visitor;
    case 'agent':
      if (message.sender_id === props.me.id) return t('inbox.conversation.you');
      return (
        props.team.find((agent) => agent.id === message.sender_id)?.name ??
        t('inbox.conversation.agent')
      );
    case 'bot':
      return t('inbox.conversation.bot');
    case 'system':
      return t('inbox.conversation.system');
  }
}

function MessageBubble({
  message,
  author,
  seen,
}: {
  message: Message;
  author: string;
  seen: boolean;
}) {
  if (message.sender_type === 'system') {
    return <Text className={classes.system}>{message.body}</Text>;
  }
  const fromVisitor = message.sender_type === 'visitor';
  const attachments = message.attachments;
  return (
    <Stack gap={2} align={fromVisitor ? 'flex-start' : 'flex-end'}>
      <Text size="xs" c="dimmed">
        {author} · {shortTime(message.created_at)}
        {message.private && ` · ${t('inbox.conversation.privateNote')}`}
      </Text>
      <div
        className={fromVisitor ? classes.visitor : message.private ? classes.note : classes.agent}
      >
        {message.body}
        {attachments.map((file) =>
          file.content_type.startsWith('image/') ? (
            <a key={file.id} href={file.url} target="_blank" rel="noreferrer">
              <img
                src={file.url}
                alt={t('inbox.conversation.image', { name: file.file_name })}
                className={classes.preview}
              />
            </a>
          ) : (
            <Anchor
              key={file.id}
              href={file.url}
              target="_blank"
              rel="noreferrer"
              display="block"
              c={fromVisitor || message.private ? undefined : 'white'}
              underline="always"
            >
              {t('inbox.conversation.attachment', { name: file.file_name })}
            </Anchor>
          ),
        )}
      </div>
      {seen && (
        <Text size="xs" c="dimmed">
          {t('inbox.conversation.seen')}
        </Text>
      )}
    </Stack>
  );
}
