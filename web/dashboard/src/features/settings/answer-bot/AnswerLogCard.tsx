import { Anchor, Card, Group, List, Pagination, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../../../../shared/api/client';
import { t, type MessageKey } from '../../../i18n';
import { ListTable } from '../kit/ListTable';
import { formatDateTime, Tag } from '../kit/ui';
import { useAnswerLog } from './queries';

type Entry = Schemas['AnswerLogEntryDto'];

/**
 * The cited passages of an answer (those whose number it names, as the bot lists them under the
 * answer) and the answer without that list, which the Sources column shows as links.
 */
function citedOf(entry: Entry) {
  const answer = entry.answer ?? '';
  const [text] = answer.split(/\n\n(?=\[\d+\] )/);
  const sources = entry.passages
    .map((passage, index) => ({ ...passage, n: index + 1 }))
    .filter((passage) => text.includes(`[${passage.n}]`));
  return { text, sources };
}

function AnswerCell({ entry }: { entry: Entry }) {
  if (entry.outcome !== 'answered' || entry.answer === null) {
    return (
      <Text size="sm" c="dimmed">
        {t(`bot.log.outcome.${entry.outcome}` as MessageKey)}
      </Text>
    );
  }
  const { text, sources } = citedOf(entry);
  return (
    <Stack gap={4}>
      <Tag color="violet" size="sm">
        {t('bot.log.generated')}
      </Tag>
      <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {text}
      </Text>
      {sources.length > 0 && (
        <>
          <Text size="xs" fw={500} mt={4}>
            {t('bot.log.sources')}
          </Text>
          <List size="xs" listStyleType="none" spacing={2}>
            {sources.map((source) => (
              <List.Item key={source.n}>
                [{source.n}]{' '}
                {source.url ? (
                  <Anchor href={source.url} target="_blank" rel="noreferrer" size="xs">
                    {source.title}
                  </Anchor>
                ) : (
                  source.title
                )}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}

/** Every generated answer of the site, newest first: what was asked, said and how it ended. */
export function AnswerLogCard({ siteId }: { siteId: number }) {
  const [page, setPage] = useState(1);
  const log = useAnswerLog(siteId, page);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="bot-log">
      <Title order={3} size="h4" id="bot-log" mb={4}>
        {t('bot.log.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('bot.log.description')}
      </Text>
      {log.data && log.data.total > 0 && (
        <Text size="sm" c="dimmed" aria-live="polite" mt="xs">
          {t('bot.log.total', { total: log.data.total })}
        </Text>
      )}
      <ListTable
        items={log.data?.data}
        loading={log.isPending}
        error={log.error}
        empty={t('bot.log.empty')}
        rowKey={(entry) => entry.id}
        minWidth={820}
        columns={[
          {
            key: 'when',
            header: t('bot.log.when'),
            cell: (entry) => (
              <Stack gap={2}>
                <Text size="sm">{formatDateTime(entry.created_at)}</Text>
                <Text size="xs" c="dimmed">
                  {t('bot.log.model', { model: entry.model, ms: entry.latency_ms })}
                </Text>
              </Stack>
            ),
            props: { style: { whiteSpace: 'nowrap', verticalAlign: 'top' } },
          },
          {
            key: 'question',
            header: t('bot.log.question'),
            cell: (entry) => (
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {entry.question}
              </Text>
            ),
            props: { style: { verticalAlign: 'top', minWidth: 160 } },
          },
          {
            key: 'answer',
            header: t('bot.log.answer'),
            cell: (entry) => <AnswerCell entry={entry} />,
            props: { style: { verticalAlign: 'top', minWidth: 320 } },
          },
          {
            key: 'feedback',
            header: t('bot.log.feedback'),
            cell: (entry) =>
              entry.feedback ? t(`bot.log.feedback.${entry.feedback}` as MessageKey) : '—',
            props: { style: { verticalAlign: 'top' } },
          },
          {
            key: 'handedOver',
            header: t('bot.log.handedOver'),
            cell: (entry) =>
              entry.outcome !== 'answered' || entry.feedback === 'handoff'
                ? t('bot.log.yes')
                : t('bot.log.no'),
            props: { style: { verticalAlign: 'top' } },
          },
        ]}
      />
      {log.data && log.data.last_page > 1 && (
        <Group justify="center" mt="md">
          <Pagination
            total={log.data.last_page}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({
              'aria-label': `${t('bot.log.pages')}: ${control}`,
            })}
          />
        </Group>
      )}
    </Card>
  );
}
