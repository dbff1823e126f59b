import { Card, Group, Select, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { t, type MessageKey } from '../../../i18n';
import { QueryState } from '../kit/ui';
import { useAnswerBotReport } from './queries';

const PERIODS = [7, 30, 90];

export function ReportCard({ siteId }: { siteId: number }) {
  const [days, setDays] = useState(30);
  const report = useAnswerBotReport(siteId, days);
  const data = report.data?.data;
  const figures: [MessageKey, number][] = data
    ? [
        ['bot.report.questions', data.questions],
        ['bot.report.answered', data.answered],
        ['bot.report.resolved', data.resolved],
        ['bot.report.handedOff', data.handed_off],
      ]
    : [];
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="bot-report">
      <Group justify="space-between" align="flex-end" mb="md">
        <Title order={3} size="h4" id="bot-report">
          {t('bot.report.title')}
        </Title>
        <Select
          label={t('bot.report.days')}
          data={PERIODS.map((n) => ({
            value: String(n),
            label: t('bot.report.daysOption', { days: n }),
          }))}
          value={String(days)}
          onChange={(v) => v && setDays(Number(v))}
          allowDeselect={false}
          w={180}
        />
      </Group>
      <QueryState loading={report.isPending} error={report.error} />
      {data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} mb="lg" component="dl" m={0}>
            {figures.map(([label, value]) => (
              <div key={label}>
                <Text component="dt" size="sm" c="dimmed">
                  {t(label)}
                </Text>
                <Text component="dd" m={0} fw={700} fz="xl">
                  {value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          <Title order={4} size="h5" id="bot-unanswered" mt="lg" mb="xs">
            {t('bot.report.unanswered')}
          </Title>
          {data.unanswered.length === 0 ? (
            <Text c="dimmed">{t('bot.report.noUnanswered')}</Text>
          ) : (
            <Table aria-labelledby="bot-unanswered">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('bot.replies.question')}</Table.Th>
                  <Table.Th>{t('bot.report.asked')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.unanswered.map((row) => (
                  <Table.Tr key={row.question}>
                    <Table.Td>{row.question}</Table.Td>
                    <Table.Td>{row.asked}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Card>
  );
}
