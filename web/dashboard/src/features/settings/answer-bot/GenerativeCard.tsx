import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  Group,
  List,
  NumberInput,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { t } from '../../../i18n';
import { fieldErrorsOf, QueryState } from '../kit/ui';
import { type BotSettings, type Notice, useBotSettings, useSaveBotSettings } from './shared';

const MAX_TOPICS = 20;

/**
 * Generated answers (DESIGN section 11): the switch, the guidance, the topics the model must not
 * touch and the daily cap. On a server without a language model the section says so and which
 * variables turn it on, its controls disabled.
 */
export function GenerativeCard(props: { siteId: number; readOnly: boolean; notice: Notice }) {
  const settings = useBotSettings(props.siteId);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="bot-generative">
      <Title order={3} size="h4" id="bot-generative" mb={4}>
        {t('bot.generative.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('bot.generative.description')}
      </Text>
      <QueryState loading={settings.isPending} error={settings.error} />
      {settings.data && (
        <GenerativeForm key={settings.dataUpdatedAt} value={settings.data.data} {...props} />
      )}
    </Card>
  );
}

function GenerativeForm({
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
  const available = value.generative_available;
  const disabled = readOnly || !available;
  const [form, setForm] = useState({
    generative: value.generative,
    guidance: value.guidance ?? '',
    forbidden_topics: value.forbidden_topics,
    daily_cap: value.daily_cap,
  });
  const [topic, setTopic] = useState('');
  const save = useSaveBotSettings(siteId, notice);
  const errors = fieldErrorsOf(save.error);
  const topicError =
    errors.forbidden_topics ??
    Object.entries(errors).find(([key]) => key.startsWith('forbidden_topics'))?.[1];
  const addTopic = () => {
    const words = topic.trim();
    if (!words) return;
    if (!form.forbidden_topics.some((known) => known.toLowerCase() === words.toLowerCase())) {
      setForm({ ...form, forbidden_topics: [...form.forbidden_topics, words] });
    }
    setTopic('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...form, guidance: form.guidance.trim() || null });
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        {!available && (
          <Alert color="gray" variant="light" title={t('bot.generative.unavailableTitle')}>
            <Text size="sm">
              {t('bot.generative.unavailable')} <Code>LLM_BASE_URL</Code>, <Code>LLM_API_KEY</Code>{' '}
              {t('bot.generative.and')} <Code>LLM_MODEL</Code>.
            </Text>
          </Alert>
        )}
        <Switch
          label={t('bot.generative.enabled')}
          checked={form.generative}
          disabled={disabled}
          onChange={(event) => setForm({ ...form, generative: event.currentTarget.checked })}
        />
        <Textarea
          label={t('bot.generative.guidance')}
          description={t('bot.generative.guidanceHelp')}
          autosize
          minRows={3}
          maxLength={2000}
          value={form.guidance}
          disabled={disabled}
          error={errors.guidance}
          onChange={(event) => setForm({ ...form, guidance: event.currentTarget.value })}
        />
        <div>
          <Text component="h4" size="sm" fw={500} id="bot-topics" m={0}>
            {t('bot.generative.topics')}
          </Text>
          <Text size="xs" c="dimmed" mb="xs">
            {t('bot.generative.topicsHelp')}
          </Text>
          {form.forbidden_topics.length === 0 ? (
            <Text size="sm" c="dimmed" mb="xs">
              {t('bot.generative.noTopics')}
            </Text>
          ) : (
            <List aria-labelledby="bot-topics" listStyleType="none" spacing={4} mb="xs">
              {form.forbidden_topics.map((known) => (
                <List.Item key={known}>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm">{known}</Text>
                    {!disabled && (
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="sm"
                        aria-label={t('bot.generative.removeTopic', { topic: known })}
                        onClick={() =>
                          setForm({
                            ...form,
                            forbidden_topics: form.forbidden_topics.filter((x) => x !== known),
                          })
                        }
                      >
                        <IconX size={14} aria-hidden />
                      </ActionIcon>
                    )}
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
          {!disabled && (
            <Group align="flex-end" gap="xs">
              <TextInput
                label={t('bot.generative.newTopic')}
                value={topic}
                maxLength={200}
                error={topicError}
                disabled={form.forbidden_topics.length >= MAX_TOPICS}
                onChange={(event) => setTopic(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    addTopic();
                  }
                }}
                style={{ flex: 1 }}
                maw={420}
              />
              <Button
                variant="default"
                onClick={addTopic}
                disabled={form.forbidden_topics.length >= MAX_TOPICS}
              >
                {t('bot.generative.addTopic')}
              </Button>
            </Group>
          )}
        </div>
        <NumberInput
          label={t('bot.generative.dailyCap')}
          description={t('bot.generative.dailyCapHelp')}
          min={1}
          max={100000}
          allowDecimal={false}
          value={form.daily_cap}
          disabled={disabled}
          error={errors.daily_cap}
          onChange={(v) => setForm({ ...form, daily_cap: Number(v) })}
          maw={320}
        />
        {!disabled && (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('bot.generative.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
