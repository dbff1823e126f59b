import {
  Card,
  Group,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Button,
  Stack,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import { ConfirmButton, EditButton, fieldErrorsOf, QueryState } from '../kit/ui';
import type { Notice } from './shared';
import { keys } from '../../../api/keys';
import { useBotReplies } from './queries';

type BotReply = Schemas['BotReplyDto'];

export function BotRepliesCard({
  siteId,
  readOnly,
  notice,
}: {
  siteId: number;
  readOnly: boolean;
  notice: Notice;
}) {
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const replies = useBotReplies(siteId, q);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.botReplies.site(siteId) });
  const update = useMutation({
    mutationFn: (body: { id: number; patch: Schemas['UpdateBotReplyDto'] }) =>
      unwrap(
        api.PATCH('/api/agent/bot-replies/{reply}', {
          params: { path: { reply: body.id } },
          body: body.patch,
        }),
      ),
    onSuccess: () => {
      void refresh();
      notice.success(t('settings.saved'));
    },
    onError: notice.failure,
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/bot-replies/{reply}', { params: { path: { reply: id } } })),
    onSuccess: () => {
      void refresh();
      notice.success(t('bot.replies.deleted'));
    },
    onError: notice.failure,
  });
  const [editing, setEditing] = useState({ question: '', answer: '' });
  const rows = replies.data?.data ?? [];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="bot-replies">
      <Title order={3} size="h4" id="bot-replies" mb="sm">
        {t('bot.replies.title')}
      </Title>
      <TextInput
        label={t('bot.replies.search')}
        type="search"
        value={q}
        onChange={(event) => setQ(event.currentTarget.value)}
        maw={360}
        mb="md"
      />
      <QueryState loading={replies.isPending} error={replies.error} />
      {replies.data && rows.length === 0 && <Text c="dimmed">{t('bot.replies.empty')}</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" aria-labelledby="bot-replies">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('bot.replies.question')}</Table.Th>
                <Table.Th>{t('bot.replies.answer')}</Table.Th>
                <Table.Th>{t('bot.replies.enabled')}</Table.Th>
                {!readOnly && <Table.Th>{t('bot.replies.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((reply: BotReply) => (
                <Table.Tr key={reply.id}>
                  <Table.Td fw={500}>{reply.question}</Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={3}>
                      {reply.answer}
                    </Text>
                    {reply.source_url && (
                      <Text size="xs" c="dimmed">
                        {t('bot.replies.source')} {reply.source_url}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={t('bot.replies.enabledFor', { question: reply.question })}
                      checked={reply.enabled}
                      disabled={readOnly}
                      onChange={(event) =>
                        update.mutate({
                          id: reply.id,
                          patch: { enabled: event.currentTarget.checked },
                        })
                      }
                    />
                  </Table.Td>
                  {!readOnly && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <EditButton
                          label={t('bot.replies.edit')}
                          title={t('bot.replies.editTitle')}
                          onOpen={() =>
                            setEditing({ question: reply.question, answer: reply.answer })
                          }
                          onSave={() => update.mutateAsync({ id: reply.id, patch: editing })}
                          saving={update.isPending}
                          error={update.error}
                        >
                          <TextInput
                            label={t('bot.replies.question')}
                            required
                            value={editing.question}
                            error={fieldErrorsOf(update.error).question}
                            onChange={(event) =>
                              setEditing({ ...editing, question: event.currentTarget.value })
                            }
                          />
                          <Textarea
                            label={t('bot.replies.answer')}
                            required
                            autosize
                            minRows={3}
                            value={editing.answer}
                            error={fieldErrorsOf(update.error).answer}
                            onChange={(event) =>
                              setEditing({ ...editing, answer: event.currentTarget.value })
                            }
                          />
                        </EditButton>
                        <ConfirmButton
                          label={t('bot.replies.delete')}
                          title={t('bot.replies.deleteTitle')}
                          message={t('bot.replies.deleteMessage', { question: reply.question })}
                          confirmLabel={t('bot.replies.delete')}
                          loading={remove.isPending && remove.variables === reply.id}
                          onConfirm={() => remove.mutate(reply.id)}
                        />
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!readOnly && <AddReplyForm siteId={siteId} notice={notice} onAdded={() => void refresh()} />}
    </Card>
  );
}

function AddReplyForm(props: { siteId: number; notice: Notice; onAdded: () => void }) {
  const [form, setForm] = useState({ question: '', answer: '' });
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/bot-replies', {
          body: { site_id: props.siteId, enabled: true, ...form },
        }),
      ),
    onSuccess: () => {
      setForm({ question: '', answer: '' });
      props.onAdded();
      props.notice.success(t('bot.replies.added'));
    },
    onError: props.notice.failure,
  });
  const errors = fieldErrorsOf(add.error);
  return (
    <form
      aria-labelledby="bot-reply-add"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <Title order={4} size="h5" id="bot-reply-add" mt="lg" mb="xs">
        {t('bot.replies.add')}
      </Title>
      <Stack>
        <TextInput
          label={t('bot.replies.question')}
          required
          value={form.question}
          error={errors.question}
          onChange={(event) => setForm({ ...form, question: event.currentTarget.value })}
        />
        <Textarea
          label={t('bot.replies.answer')}
          required
          autosize
          minRows={2}
          value={form.answer}
          error={errors.answer}
          onChange={(event) => setForm({ ...form, answer: event.currentTarget.value })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={add.isPending}>
            {t('bot.replies.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
