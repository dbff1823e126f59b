import { Alert, Badge, Loader, Table } from '@mantine/core';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import { useInstances } from './queries';

/** The instances heard from in the last minute, by their heartbeat. */
export function InstancesPanel() {
  const instances = useInstances();
  if (instances.error)
    return (
      <Alert color="red" role="alert">
        {t('admin.error', { message: instances.error.message })}
      </Alert>
    );
  if (!instances.data) return <Loader role="status" aria-label={t('app.loading')} />;
  return (
    <Table striped aria-label={t('admin.instances.list')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('admin.instances.host')}</Table.Th>
          <Table.Th>{t('admin.instances.version')}</Table.Th>
          <Table.Th>{t('admin.instances.workers')}</Table.Th>
          <Table.Th>{t('admin.instances.started')}</Table.Th>
          <Table.Th>{t('admin.instances.seen')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {instances.data.data.map((instance) => (
          <Table.Tr key={instance.id}>
            <Table.Th scope="row">
              {instance.hostname}:{instance.pid}{' '}
              {instance.current && <Badge variant="light">{t('admin.instances.this')}</Badge>}
            </Table.Th>
            <Table.Td>{instance.version}</Table.Td>
            <Table.Td>
              {instance.workers_enabled ? t('admin.instances.yes') : t('admin.instances.no')}
            </Table.Td>
            <Table.Td>{longTime(instance.started_at)}</Table.Td>
            <Table.Td>{longTime(instance.last_seen_at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
