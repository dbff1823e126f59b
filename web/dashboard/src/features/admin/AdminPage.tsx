import { Container, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { t } from '../../i18n';
import { FailuresPanel } from './FailuresPanel';
import { InstancesPanel } from './InstancesPanel';
import { OrganizationsPanel } from './OrganizationsPanel';
import { QueuesPanel } from './QueuesPanel';

const TABS = ['organizations', 'queues', 'failures', 'instances'] as const;
type Tab = (typeof TABS)[number];

/**
 * The platform administrators' console (`/api/platform/...`): organizations, queues, failing
 * webhook endpoints and mails, instances.
 */
export default function AdminPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((value) => value === params.get('tab')) ?? 'organizations';
  return (
    <Container size="xl" py="lg">
      <Title order={1} size="h2" mb="md">
        {t('admin.title')}
      </Title>
      <Tabs value={tab} onChange={(value) => setParams({ tab: value ?? 'organizations' })}>
        <Tabs.List aria-label={t('admin.tabs')}>
          {TABS.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`admin.tab.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="organizations" pt="md">
          {tab === 'organizations' && <OrganizationsPanel />}
        </Tabs.Panel>
        <Tabs.Panel value="queues" pt="md">
          {tab === 'queues' && <QueuesPanel />}
        </Tabs.Panel>
        <Tabs.Panel value="failures" pt="md">
          {tab === 'failures' && <FailuresPanel />}
        </Tabs.Panel>
        <Tabs.Panel value="instances" pt="md">
          {tab === 'instances' && <InstancesPanel />}
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}
