import {
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { t } from '../../../i18n';
import { fieldErrorsOf, QueryState } from '../kit/ui';
import { type BotSettings, type Notice, useBotSettings, useSaveBotSettings } from './shared';

/** The bot's own settings: on or off, how strict, how many answers, what it says handing over. */
export function BotSettingsCard(props: { siteId: number; readOnly: boolean; notice: Notice }) {
  const settings = useBotSettings(props.siteId);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="bot-settings">
      <Title order={3} size="h4" id="bot-settings" mb="sm">
        {t('bot.settings.title')}
      </Title>
      <QueryState loading={settings.isPending} error={settings.error} />
      {settings.data && (
        <BotSettingsForm key={settings.dataUpdatedAt} value={settings.data.data} {...props} />
      )}
    </Card>
  );
}

function BotSettingsForm({
  value,
  siteId,
  readOnly,
  notice,
}: {
  value: BotSettings;
  siteId: number;
  readOnly: boolean;
  notice: Notice;
}) {
  const [form, setForm] = useState({
    enabled: value.enabled,
    min_score: value.min_score,
    max_answers: value.max_answers,
    handoff_message: value.handoff_message ?? '',
  });
  const save = useSaveBotSettings(siteId, notice);
  const errors = fieldErrorsOf(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...form, handoff_message: form.handoff_message.trim() || null });
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <Switch
          label={t('bot.settings.enabled')}
          checked={form.enabled}
          disabled={readOnly}
          onChange={(event) => setForm({ ...form, enabled: event.currentTarget.checked })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('bot.settings.minScore')}
            description={t('bot.settings.minScoreHelp')}
            min={0}
            max={1}
            step={0.05}
            decimalScale={2}
            value={form.min_score}
            disabled={readOnly}
            error={errors.min_score}
            onChange={(v) => setForm({ ...form, min_score: Number(v) })}
          />
          <NumberInput
            label={t('bot.settings.maxAnswers')}
            description={t('bot.settings.maxAnswersHelp')}
            min={1}
            allowDecimal={false}
            value={form.max_answers}
            disabled={readOnly}
            error={errors.max_answers}
            onChange={(v) => setForm({ ...form, max_answers: Number(v) })}
          />
        </SimpleGrid>
        <Textarea
          label={t('bot.settings.handoff')}
          description={t('bot.settings.handoffHelp')}
          autosize
          minRows={2}
          value={form.handoff_message}
          disabled={readOnly}
          error={errors.handoff_message}
          onChange={(event) => setForm({ ...form, handoff_message: event.currentTarget.value })}
        />
        {!readOnly && (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('bot.settings.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
