import { BarChart } from '@mantine/charts';
import {
  Alert,
  Anchor,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { t } from '../../i18n';
import { csvHref, formatDuration, formatRate, reportQuery } from './report-format';
import { keys } from '../../api/keys';

type Query = ReturnType<typeof reportQuery>;
interface Names {
  site: (id: number | null) => string;
  agent: (id: number | null) => string;
}

/** A report's per-agent rows then its per-site rows, each with the name to show. */
function agentAndSiteRows<Row extends { id: number | null }>(
  data: { per_agent: Row[]; per_site: Row[] },
  names: Names,
): (Row & { label: string })[] {
  return [
    ...data.per_agent.map((row) => ({ ...row, label: names.agent(row.id) })),
    ...data.per_site.map((row) => ({ ...row, label: names.site(row.id) })),
  ];
}

function ReportCard({
  id,
  title,
  csv,
  loading,
  error,
  children,
}: {
  id: string;
  title: string;
  csv: string;
  loading: boolean;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        <Anchor href={csv} download size="sm" aria-label={t('reports.csvOf', { title })}>
          <Group gap={4} component="span">
            <IconDownload size={16} aria-hidden />
            {t('reports.csv')}
          </Group>
        </Anchor>
      </Group>
      {error ? (
        <Alert color="red" role="alert">
          {error instanceof Error ? error.message : t('reports.failed')}
        </Alert>
      ) : loading ? (
        <Stack role="status" aria-label={t('reports.loading')}>
          <Skeleton h={28} />
          <Skeleton h={200} />
        </Stack>
      ) : (
        children
      )}
    </Card>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2} aria-label={`${label}: ${value}`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** A chart is a picture for the eye; the table next to it carries the same numbers. */
function Chart({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="img" aria-label={label}>
      {children}
    </div>
  );
}

export function ConversationsReport({ query, names }: { query: Query; names: Names }) {
  const report = useQuery({
    queryKey: keys.reports.conversations(query),
    queryFn: () => unwrap(api.GET('/api/agent/reports/conversations', { params: { query } })),
  });
  const data = report.data?.data;
  const title = t('reports.conversations.title');
  return (
    <ReportCard
      id="report-conversations"
      title={title}
      csv={csvHref('conversations', query)}
      loading={report.isPending}
      error={report.error}
    >
      {data && (
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Stat
              label={t('reports.conversations.total')}
              value={String(data.totals.conversations)}
            />
            <Stat label={t('reports.conversations.missed')} value={String(data.totals.missed)} />
            <Stat
              label={t('reports.conversations.missedRate')}
              value={formatRate(data.totals.missed_rate)}
            />
          </SimpleGrid>
          {data.totals.conversations === 0 ? (
            <Text c="dimmed">{t('reports.empty')}</Text>
          ) : (
            <Chart label={t('reports.conversations.chart', { from: data.from, to: data.to })}>
              <BarChart
                h={260}
                data={data.days}
                dataKey="date"
                yAxisProps={{ allowDecimals: false }}
                withLegend
                series={[
                  {
                    name: 'conversations',
                    label: t('reports.conversations.total'),
                    color: 'indigo.6',
                  },
                  { name: 'missed', label: t('reports.conversations.missed'), color: 'red.5' },
                ]}
                tickLine="y"
              />
            </Chart>
          )}
          {/* Aligned to the top: a shorter table stretched to its neighbour's height showed one
              tall row that read as an empty first row (issue 26). */}
          <SimpleGrid cols={{ base: 1, md: 2 }} style={{ alignItems: 'start' }}>
            <VolumeTable caption={t('reports.perAgent')} rows={data.per_agent} name={names.agent} />
            <VolumeTable caption={t('reports.perSite')} rows={data.per_site} name={names.site} />
          </SimpleGrid>
        </Stack>
      )}
    </ReportCard>
  );
}

function VolumeTable({
  caption,
  rows,
  name,
}: {
  caption: string;
  rows: { id: number | null; conversations: number; missed: number; missed_rate: number | null }[];
  name: (id: number | null) => string;
}) {
  return (
    <Table striped withTableBorder captionSide="top" fz="sm">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('reports.name')}</Table.Th>
          <Table.Th ta="right">{t('reports.conversations.total')}</Table.Th>
          <Table.Th ta="right">{t('reports.conversations.missed')}</Table.Th>
          <Table.Th ta="right">{t('reports.conversations.missedRate')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={4} c="dimmed">
              {t('reports.empty')}
            </Table.Td>
          </Table.Tr>
        )}
        {rows.map((row) => (
          <Table.Tr key={String(row.id)}>
            <Table.Td>{name(row.id)}</Table.Td>
            <Table.Td ta="right">{row.conversations}</Table.Td>
            <Table.Td ta="right">{row.missed}</Table.Td>
            <Table.Td ta="right">{formatRate(row.missed_rate)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function ResponseTimesReport({ query, names }: { query: Query; names: Names }) {
  const report = useQuery({
    queryKey: keys.reports.responseTimes(query),
    queryFn: () => unwrap(api.GET('/api/agent/reports/response-times', { params: { query } })),
  });
  const data = report.data?.data;
  const title = t('reports.times.title');
  // Minutes once answers take minutes; seconds while they are that quick.
  const slowest = Math.max(
    0,
    ...(data?.per_agent ?? []).map((row) => row.first_response.p90_seconds ?? 0),
  );
  const inMinutes = slowest >= 120;
  const scaled = (seconds: number | null) =>
    seconds === null ? 0 : Math.round((inMinutes ? seconds / 60 : seconds) * 10) / 10;
  return (
    <ReportCard
      id="report-times"
      title={title}
      csv={csvHref('response-times', query)}
      loading={report.isPending}
      error={report.error}
    >
      {data && (
        <Stack>
          <SimpleGrid cols={2}>
            <Stat
              label={t('reports.times.firstMedian')}
              value={formatDuration(data.totals.first_response.median_seconds)}
              hint={t('reports.times.p90', {
                value: formatDuration(data.totals.first_response.p90_seconds),
              })}
            />
            <Stat
              label={t('reports.times.resolutionMedian')}
              value={formatDuration(data.totals.resolution.median_seconds)}
              hint={t('reports.times.p90', {
                value: formatDuration(data.totals.resolution.p90_seconds),
              })}
            />
          </SimpleGrid>
          {data.per_agent.length > 0 && (
            <Chart
              label={t('reports.times.chart', {
                unit: inMinutes ? t('reports.minutes') : t('reports.seconds'),
              })}
            >
              <BarChart
                h={220}
                data={data.per_agent.map((row) => ({
                  agent: names.agent(row.id),
                  median: scaled(row.first_response.median_seconds),
                  p90: scaled(row.first_response.p90_seconds),
                }))}
                dataKey="agent"
                unit={inMinutes ? ' min' : ' s'}
                withLegend
                series={[
                  { name: 'median', label: t('reports.times.median'), color: 'teal.6' },
                  { name: 'p90', label: t('reports.times.p90Short'), color: 'orange.5' },
                ]}
              />
            </Chart>
          )}
          <Table striped withTableBorder captionSide="top" fz="sm">
            <Table.Caption>{t('reports.perAgentAndSite')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('reports.name')}</Table.Th>
                <Table.Th ta="right">{t('reports.times.first')}</Table.Th>
                <Table.Th ta="right">{t('reports.times.resolution')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {agentAndSiteRows(data, names).map((row, index) => (
                <Table.Tr key={index}>
                  <Table.Td>{row.label}</Table.Td>
                  <Table.Td ta="right">
                    {formatDuration(row.first_response.median_seconds)} /{' '}
                    {formatDuration(row.first_response.p90_seconds)}
                  </Table.Td>
                  <Table.Td ta="right">
                    {formatDuration(row.resolution.median_seconds)} /{' '}
                    {formatDuration(row.resolution.p90_seconds)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            {t('reports.times.legend')}
          </Text>
        </Stack>
      )}
    </ReportCard>
  );
}

const RATINGS = ['1', '2', '3', '4', '5'] as const;

export function CsatReport({ query, names }: { query: Query; names: Names }) {
  const report = useQuery({
    queryKey: keys.reports.csat(query),
    queryFn: () => unwrap(api.GET('/api/agent/reports/csat', { params: { query } })),
  });
  const data = report.data?.data;
  const title = t('reports.csat.title');
  return (
    <ReportCard
      id="report-csat"
      title={title}
      csv={csvHref('csat', query)}
      loading={report.isPending}
      error={report.error}
    >
      {data && (
        <Stack>
          <SimpleGrid cols={2}>
            <Stat
              label={t('reports.csat.average')}
              value={data.totals.average === null ? '—' : data.totals.average.toFixed(2)}
              hint={t('reports.csat.outOf')}
            />
            <Stat label={t('reports.csat.count')} value={String(data.totals.count)} />
          </SimpleGrid>
          <Chart label={t('reports.csat.chart')}>
            <BarChart
              h={200}
              data={RATINGS.map((rating) => ({
                rating: t('reports.csat.stars', { rating }),
                count: data.totals.distribution[rating],
              }))}
              dataKey="rating"
              yAxisProps={{ allowDecimals: false }}
              series={[{ name: 'count', label: t('reports.csat.count'), color: 'yellow.6' }]}
            />
          </Chart>
          <Table striped withTableBorder captionSide="top" fz="sm">
            <Table.Caption>{t('reports.perAgentAndSite')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('reports.name')}</Table.Th>
                <Table.Th ta="right">{t('reports.csat.average')}</Table.Th>
                <Table.Th ta="right">{t('reports.csat.count')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {agentAndSiteRows(data, names).map((row, index) => (
                <Table.Tr key={index}>
                  <Table.Td>{row.label}</Table.Td>
                  <Table.Td ta="right">
                    {row.average === null ? '—' : row.average.toFixed(2)}
                  </Table.Td>
                  <Table.Td ta="right">{row.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <RatingComments comments={data.comments} names={names} />
        </Stack>
      )}
    </ReportCard>
  );
}

/** The comments visitors left with their rating, newest first, each linked to its chat. */
function RatingComments({
  comments,
  names,
}: {
  comments: {
    conversation_id: number;
    rating: number;
    comment: string;
    reviewed_at: string;
    agent_id: number | null;
  }[];
  names: Names;
}) {
  return (
    <section aria-labelledby="rating-comments">
      <Title order={3} size="h5" id="rating-comments" mb="xs">
        {t('reports.csat.comments')}
      </Title>
      {comments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('reports.csat.noComments')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {comments.map((comment) => (
            <Paper component="li" withBorder p="sm" radius="md" key={comment.conversation_id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {comment.comment}
                </Text>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {t('reports.csat.commentRating', { rating: comment.rating })}
                </Text>
              </Group>
              <Group gap="xs" mt={4}>
                <Text size="xs" c="dimmed">
                  {t('reports.csat.commentBy', {
                    agent: names.agent(comment.agent_id),
                    when: new Date(comment.reviewed_at).toLocaleString(),
                  })}
                </Text>
                <Anchor component={Link} to={`/inbox/${comment.conversation_id}`} size="xs">
                  {t('reports.csat.openConversation')}
                </Anchor>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}
