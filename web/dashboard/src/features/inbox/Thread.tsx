import { Anchor, Badge, Box, Button, Center, ScrollArea, Stack, Text } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { type Agent, loadEarlierMessages, type Member, type Message } from '../../api/queries';
import { type PendingReply, replyOutbox } from '../../api/outbox';
import { shortTime } from '../../components/format';
import { t } from '../../i18n';
import classes from './inbox.module.css';

/** How near the bottom (in pixels) still counts as reading the newest messages. */
const BOTTOM_SLACK_PX = 48;

/** The conversation's messages: follows the newest, loads earlier ones, shows replies being sent. */
export function Thread(props: {
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

  // Replies written here that the server has not confirmed yet (the connection may be down).
  const outbox = useSyncExternalStore(replyOutbox.subscribe, replyOutbox.pending);
  const pending = outbox.filter((reply) => reply.conversationId === props.conversationId);
  useEffect(() => {
    const el = viewport.current;
    if (el && pending.length > 0) el.scrollTop = el.scrollHeight;
  }, [pending.length]);

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
          {pending.map((reply) => (
            <PendingBubble key={reply.key} reply={reply} />
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

/** A reply on its way: the text as written, marked as still being sent. */
function PendingBubble({ reply }: { reply: PendingReply }) {
  return (
    <Stack gap={2} align="flex-end">
      <Text size="xs" c="dimmed">
        {t('inbox.conversation.you')}
        {reply.draft.note && ` · ${t('inbox.conversation.privateNote')}`}
      </Text>
      <div className={reply.draft.note ? classes.note : classes.pending}>
        {reply.draft.text}
        {reply.draft.files.map((file) => (
          <Text key={file.id} size="sm">
            {t('inbox.conversation.attachment', { name: file.file_name })}
          </Text>
        ))}
      </div>
      <Text size="xs" c="dimmed">
        {t('inbox.conversation.sending')}
      </Text>
    </Stack>
  );
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
        {message.sender_mismatch && (
          <>
            {' · '}
            <Badge
              component="span"
              size="xs"
              color="orange"
              variant="light"
              title={t('inbox.conversation.senderMismatchHint')}
            >
              {t('inbox.conversation.senderMismatch')}
            </Badge>
          </>
        )}
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
