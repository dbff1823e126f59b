import '@mantine/charts/styles.css';
import {
  Box,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useSiteNames, useTeamDirectory } from '../../api/queries';
import { t } from '../../i18n';
import { ConversationsReport, CsatReport, ResponseTimesReport } from './ReportSections';
import { type DayRange, lastDays, reportQuery } from './report-format';

const PRESETS = ['7', '30', '90'] as const;

/** Reports over a range of days, for one site or agent or all of them; every chart has a CSV. */
export default function ReportsPage() {
  const [preset, setPreset] = useState<string>('30');
  const [range, setRange] = useState<DayRange>(() => lastDays(30));
  const [siteId, setSiteId] = useState<number | undefined>(undefined);
  const [agentId, setAgentId] = useState<number | undefined>(undefined);
  // Every member reads the names of the sites and the team (DESIGN section 12).
  const sites = useSiteNames();
  const team = useTeamDirectory();
  const siteNames = new Map(sites.data?.map((site) => [site.id, site.name]));
  const agentNames = new Map(team.data?.map((agent) => [agent.id, agent.name]));
  const names = {
    site: (id: number | null) =>
      id === null ? t('reports.none') : (siteNames.get(id) ?? t('reports.siteNumber', { id })),
    agent: (id: number | null) =>
      id === null
        ? t('reports.unassigned')
        : (agentNames.get(id) ?? t('reports.agentNumber', { id })),
  };
  const query = reportQuery(range, siteId, agentId);
  const validRange = range.from !== '' && range.to !== '' && range.from <= range.to;

  return (
    <Box p="xl" maw={1200}>
      <Title order={1} mb="xs">
        {t('reports.title')}
      </Title>
      <Text c="dimmed" mb="lg">
        {t('reports.description')}
      </Text>
      <Group align="flex-end" mb="xl" gap="md" component="form" aria-label={t('reports.filters')}>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="reports-preset">
            {t('reports.range')}
          </Text>
          <SegmentedControl
            aria-labelledby="reports-preset"
            value={preset}
            onChange={(value) => {
              setPreset(value);
              if (value !== 'custom') setRange(lastDays(Number(value)));
            }}
            data={[
              ...PRESETS.map((days) => ({ value: days, label: t('reports.lastDays', { days }) })),
              { value: 'custom', label: t('reports.custom') },
            ]}
          />
        </Stack>
        <TextInput
          type="date"
          label={t('reports.from')}
          value={range.from}
          max={range.to}
          onChange={(e) => {
            setPreset('custom');
            setRange({ ...range, from: e.currentTarget.value });
          }}
          error={validRange ? undefined : t('reports.badRange')}
        />
        <TextInput
          type="date"
          label={t('reports.to')}
          value={range.to}
          min={range.from}
          onChange={(e) => {
            setPreset('custom');
            setRange({ ...range, to: e.currentTarget.value });
          }}
        />
        <Select
          label={t('reports.site')}
          placeholder={t('reports.allSites')}
          data={(sites.data ?? []).map((site) => ({
            value: String(site.id),
            label: site.name,
          }))}
          value={siteId === undefined ? null : String(siteId)}
          onChange={(value) => setSiteId(value ? Number(value) : undefined)}
          clearable
          w={200}
        />
        <Select
          label={t('reports.agent')}
          placeholder={t('reports.allAgents')}
          data={(team.data ?? []).map((agent) => ({
            value: String(agent.id),
            label: agent.name,
          }))}
          value={agentId === undefined ? null : String(agentId)}
          onChange={(value) => setAgentId(value ? Number(value) : undefined)}
          clearable
          searchable
          w={200}
        />
      </Group>
      {validRange && (
        <Stack gap="xl">
          <ConversationsReport query={query} names={names} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl">
            <ResponseTimesReport query={query} names={names} />
            <CsatReport query={query} names={names} />
          </SimpleGrid>
        </Stack>
      )}
    </Box>
  );
}
