import {
  ActionIcon,
  Button,
  FileButton,
  Group,
  Paper,
  SegmentedControl,
  Text,
  Textarea,
} from '@mantine/core';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type KeyboardEvent, type RefObject, useState } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import { type Attachment, type Message, useCannedResponses } from '../../api/queries';
import { type ReplyDraft, replyOutbox } from '../../api/outbox';
import { useShortcuts } from '../../app/useShortcuts';
import { t } from '../../i18n';
import { AttachedFiles, CANNED_LIST, CannedSuggestions } from './ComposerParts';
import { useTypingSignal } from './use-typing-signal';

type Draft = ReplyDraft;

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
  // n: write a private note (the box switches to it and takes the focus).
  useShortcuts([
    [
      'n',
      () => {
        if (closed) return;
        stopTyping();
        setMode('note');
        textareaRef.current?.focus();
      },
    ],
  ]);
  const { stopTyping, typed } = useTypingSignal(conversationId);

  // Sends run one after another in the order they were made (the outbox), so the agent can write
  // the next message while the last one is on its way, and messages written while the connection
  // is down wait there, shown as sending; a send the server refuses gives its text back.
  const [sendError, setSendError] = useState<Error | undefined>();
  const send = (draft: Draft) => {
    setSendError(undefined);
    replyOutbox.add(conversationId, draft, {
      onSent,
      onRefused: (error, refused) => {
        setSendError(error);
        setBody((current) => (current.trim() ? `${refused.text}\n${current}` : refused.text));
        setFiles((current) => [...refused.files, ...current]);
      },
    });
  };
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
  // The suggestion Tab or Enter inserts: the first, or the one the arrow keys moved to.
  const [picked, setPicked] = useState(0);
  const active = suggestions.length > 0 ? Math.min(picked, suggestions.length - 1) : -1;
  const insert = (text: string) => {
    if (!slash) return;
    setBody(body.slice(0, slash.index + slash[1].length) + text);
    textareaRef.current?.focus();
  };

  const submit = () => {
    const text = body.trim();
    if ((!text && !files.length) || upload.isPending) return;
    stopTyping();
    send({ text, files, note });
    setBody('');
    setFiles([]);
  };
  const onChange = (value: string) => {
    setBody(value);
    setPicked(0);
    typed(value, note);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (active >= 0 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setPicked((active + step + suggestions.length) % suggestions.length);
      return;
    }
    if (active >= 0 && (event.key === 'Tab' || event.key === 'Enter') && !event.shiftKey) {
      event.preventDefault();
      insert(suggestions[active].body);
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
      {sendError && (
        <Text c="red" size="sm" role="alert" mb={6}>
          {t('inbox.composer.error', { message: sendError.message })}
        </Text>
      )}
      {upload.error && (
        <Text c="red" size="sm" role="alert" mb={6}>
          {upload.error instanceof ApiError && upload.error.status === 422
            ? t('inbox.composer.uploadRefused', { name: upload.variables?.name ?? '' })
            : t('inbox.composer.uploadError', { message: upload.error.message })}
        </Text>
      )}
      <AttachedFiles
        files={files}
        onRemove={(id) => setFiles((old) => old.filter((f) => f.id !== id))}
      />
      <CannedSuggestions suggestions={suggestions} active={active} onPick={insert} />
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
          aria-controls={active >= 0 ? CANNED_LIST : undefined}
          aria-activedescendant={active >= 0 ? `canned-${suggestions[active].id}` : undefined}
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
