import {
  Button,
  Card,
  Group,
  NumberInput,
  Progress,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { t, type MessageKey } from '../../../i18n';
import { fieldErrorsOf, QueryState } from '../kit/ui';
import type { Notice } from './shared';
import { keys } from '../../../api/keys';
import { RUNNING, useContentImport } from './queries';

export function ImportCard({
  siteId,
  readOnly,
  notice,
}: {
  siteId: number;
  readOnly: boolean;
  notice: Notice;
}) {
  const queryClient = useQueryClient();
  const state = useContentImport(siteId);
  const [form, setForm] = useState({
    start_url: '',
    max_pages: 200,
    include: [] as string[],
    exclude: [] as string[],
    publish: false,
  });
  const start = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/sites/{site}/content-import', {
          params: { path: { site: siteId } },
          body: {
            ...(form.start_url.trim() ? { start_url: form.start_url.trim() } : {}),
            max_pages: form.max_pages,
            include: form.include,
            exclude: form.exclude,
            publish: form.publish,
          },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.contentImport.site(siteId), result);
      notice.success(t('bot.import.started'));
    },
    onError: notice.failure,
  });
  const cancel = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/agent/sites/{site}/content-import', {
          params: { path: { site: siteId } },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.contentImport.site(siteId) });
      void queryClient.invalidateQueries({ queryKey: keys.botReplies.site(siteId) });
      notice.success(t('bot.import.cancelled'));
    },
    onError: notice.failure,
  });
  const current = state.data?.data;
  const running = !!current && RUNNING.includes(current.status);
  const errors = fieldErrorsOf(start.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate();
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="bot-import">
      <Title order={3} size="h4" id="bot-import" mb={4}>
        {t('bot.import.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('bot.import.description')}
      </Text>
      <QueryState loading={state.isPending} error={state.error} />
      {current && (
        <Stack gap="xs" mb="md">
          <Text fw={500}>
            {t('bot.import.status', {
              status: t(`bot.import.status.${current.status}` as MessageKey),
            })}
          </Text>
          {current.status !== 'not_started' && (
            <>
              <Progress
                value={current.progress}
                aria-label={t('bot.import.progress')}
                animated={running}
              />
              <Text size="sm" role="status">
                {current.progress_label}
              </Text>
            </>
          )}
          {current.status === 'completed' && (
            <Text size="sm">
              {t('bot.import.summary', {
                pages: current.summary.pages,
                articles: current.summary.kb_articles,
                replies: current.summary.bot_replies,
              })}
            </Text>
          )}
          {current.status === 'failed' && current.error && (
            <Text size="sm" c="red.8" role="alert">
              {t('bot.import.failed', { error: current.error })}
            </Text>
          )}
          {running && !readOnly && (
            <Group>
              <Button
                variant="default"
                color="red"
                loading={cancel.isPending}
                onClick={() => cancel.mutate()}
              >
                {t('bot.import.cancel')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      {!readOnly && !running && (
        <form onSubmit={submit}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('bot.import.startUrl')}
                description={t('bot.import.startUrlHelp')}
                type="url"
                value={form.start_url}
                error={errors.start_url}
                onChange={(event) => setForm({ ...form, start_url: event.currentTarget.value })}
              />
              <NumberInput
                label={t('bot.import.maxPages')}
                min={1}
                allowDecimal={false}
                value={form.max_pages}
                error={errors.max_pages}
                onChange={(v) => setForm({ ...form, max_pages: Number(v) })}
              />
              <TagsInput
                label={t('bot.import.include')}
                description={t('bot.import.includeHelp')}
                value={form.include}
                error={errors.include}
                onChange={(include) => setForm({ ...form, include })}
              />
              <TagsInput
                label={t('bot.import.exclude')}
                description={t('bot.import.excludeHelp')}
                value={form.exclude}
                error={errors.exclude}
                onChange={(exclude) => setForm({ ...form, exclude })}
              />
            </SimpleGrid>
            <Switch
              label={t('bot.import.publish')}
              checked={form.publish}
              onChange={(event) => setForm({ ...form, publish: event.currentTarget.checked })}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={start.isPending}>
                {t('bot.import.start')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}
