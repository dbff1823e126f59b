import {
  ActionIcon,
  Button,
  CloseButton,
  FileButton,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  UnstyledButton,
} from '@mantine/core';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { type Attachment, type Message, useCannedResponses } from '../../api/queries';
import { agentChannel } from '../../api/socket';
import { t } from '../../i18n';

const TYPING_IDLE_MS = 2_500;

/** What one send carries, taken from the box when the agent sends it. */
interface Draft {
  text: string;
  files: Attachment[];
  note: boolean;
}

/** The reply box: Enter sends, Shift+Enter breaks the line; the visitor sees us typing. */
export function Composer({
  conversationId,
  closed,
  textareaRef,
  onSent,
}: {
  conversationId: number;
  closed: boolean;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  onSent: (message: Message) => void;
}) {
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<Attachment[]>([]);
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const note = mode === 'note';
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typing = useRef(false);

  const stopTyping = () => {
    clearTimeout(typingTimer.current);
    if (typing.current) agentChannel.typing(conversationId, false);
    typing.current = false;
  };
  // A switched or closed conversation is not being typed in any more (the view is keyed by id).
  useEffect(() => {
    return () => {
      clearTimeout(typingTimer.current);
      if (typing.current) agentChannel.typing(conversationId, false);
      typing.current = false;
    };
  }, [conversationId]);

  // Sends run one after another in the order they were made, so the agent can write the next
  // message while the last one is on its way; a send that fails gives its text back.
  const send = useMutation({
    scope: { id: `reply-${conversationId}` },
    mutationFn: (draft: Draft) =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/messages', {
          params: { path: { conversation: conversationId } },
          body: draft.files.length
            ? {
                body: draft.text,
                private: draft.note,
                attachment_ids: draft.files.map((file) => file.id),
              }
            : { body: draft.text, private: draft.note },
        }),
      ),
    onSuccess: (result) => onSent(result.data),
    onError: (_error, draft) => {
      setBody((current) => (current.trim() ? `${draft.text}\n${current}` : draft.text));
      setFiles((current) => [...draft.files, ...current]);
    },
  });
  const upload = useMutation({
    mutationFn: (file: File) =>
      unwrap(
        api.POST('/api/agent/attachments', {
          // The generated type calls the binary part a string; the body is sent as a form.
          body: { file: file as unknown as string },
          bodySerializer: (value) => {
            const form = new FormData();
            form.append('file', (value as unknown as { file: File }).file);
            return form;
          },
        }),
      ),
    onSuccess: (result) => setFiles((old) => [...old, result.data]),
  });

  // `/shortcut` at the end of the text offers the organization's canned responses.
  const slash = /(^|\s)\/(\S*)$/.exec(body);
  const canned = useCannedResponses(slash !== null).data ?? [];
  const suggestions = slash
    ? canned.filter((c) => c.shortcut.toLowerCase().startsWith(slash[2].toLowerCase())).slice(0, 6)
    : [];
  const insert = (text: string) => {
    if (!slash) return;
    setBody(body.slice(0, slash.index + slash[1].length) + text);
    textareaRef.current?.focus();
  };

  const submit = () => {
    const text = body.trim();
    if ((!text && !files.length) || upload.isPending) return;
    stopTyping();
    send.mutate({ text, files, note });
    setBody('');
    setFiles([]);
  };
  const onChange = (value: string) => {
    setBody(value);
    if (!typing.current && value.trim() && !note) {
      typing.current = true;
      agentChannel.typing(conversationId, true);
    }
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestions[0] && (event.key === 'Tab' || event.key === 'Enter') && !event.shiftKey) {
      event.preventDefault();
      insert(suggestions[0].body);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
    if (event.key === 'Escape') event.currentTarget.blur();
  };

  if (closed) {
    return (
      <Text c="dimmed" size="sm" ta="center" p="md" style={borderTop}>
        {t('inbox.composer.closed')}
      </Text>
    );
  }
  return (
    <Paper
      p="sm"
      radius={0}
      style={borderTop}
      bg={note ? 'var(--mantine-color-yellow-0)' : undefined}
    >
      <SegmentedControl
        size="xs"
        mb={6}
        aria-label={t('inbox.composer.mode')}
        value={mode}
        onChange={(value) => {
          if (value === 'note') stopTyping();
          setMode(value === 'note' ? 'note' : 'reply');
        }}
        data={[
          { value: 'reply', label: t('inbox.composer.modeReply') },
          { value: 'note', label: t('inbox.composer.modeNote') },
        ]}
      />
      {send.error && (
        <Text c="red" size="sm" role="alert" mb={6}>
          {t('inbox.composer.error', { message: send.error.message })}
        </Text>
      )}
      {upload.error && (
        <Text c="red" size="sm" role="alert" mb={6}>
          {t('inbox.composer.uploadError', { message: upload.error.message })}
        </Text>
      )}
      {files.length > 0 && (
        <Group gap="xs" mb={6} role="group" aria-label={t('inbox.composer.attached')}>
          {files.map((file) => (
            <Paper key={file.id} withBorder px="xs" py={2} radius="sm">
              <Group gap={4} wrap="nowrap">
                <Text size="sm" truncate maw={220}>
                  {file.file_name}
                </Text>
                <CloseButton
                  size="sm"
                  aria-label={t('inbox.composer.removeFile', { name: file.file_name })}
                  onClick={() => setFiles((old) => old.filter((f) => f.id !== file.id))}
                />
              </Group>
            </Paper>
          ))}
        </Group>
      )}
      {suggestions.length > 0 && (
        <Stack gap={2} mb={6} role="group" aria-label={t('inbox.canned.label')}>
          {suggestions.map((c, index) => (
            <UnstyledButton
              key={c.id}
              onClick={() => insert(c.body)}
              px="sm"
              py={6}
              style={{
                borderRadius: 'var(--mantine-radius-sm)',
                background: index === 0 ? 'var(--mantine-color-indigo-0)' : undefined,
              }}
            >
              <Text size="sm" truncate>
                <Text span fw={600} ff="monospace">
                  /{c.shortcut}
                </Text>{' '}
                {c.body}
              </Text>
            </UnstyledButton>
          ))}
          <Text size="xs" c="dimmed">
            {t('inbox.canned.hint')}
          </Text>
        </Stack>
      )}
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <FileButton onChange={(file) => file && upload.mutate(file)}>
          {(props) => (
            <ActionIcon
              {...props}
              variant="default"
              size="lg"
              mb={4}
              loading={upload.isPending}
              aria-label={t('inbox.composer.attach')}
            >
              <IconPaperclip size={18} aria-hidden />
            </ActionIcon>
          )}
        </FileButton>
        <Textarea
          ref={textareaRef}
          aria-label={note ? t('inbox.composer.noteLabel') : t('inbox.composer.label')}
          placeholder={note ? t('inbox.composer.notePlaceholder') : t('inbox.composer.placeholder')}
          autosize
          minRows={2}
          maxRows={8}
          value={body}
          onChange={(event) => onChange(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          style={{ flex: 1 }}
        />
        <Button
          onClick={submit}
          disabled={(!body.trim() && !files.length) || upload.isPending}
          rightSection={<IconSend size={16} />}
          color={note ? 'yellow' : undefined}
        >
          {note ? t('inbox.composer.addNote') : t('inbox.composer.send')}
        </Button>
      </Group>
    </Paper>
  );
}

const borderTop = { borderTop: '1px solid var(--mantine-color-gray-3)' };
