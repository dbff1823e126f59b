import { Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import { useJobAction, useQueueHealth } from './queries';

/** Each queue's jobs by state and its failed jobs, retried or removed by hand; the outbox. */
export function QueuesPanel() {
  const health = useQueueHealth();
  const action = useJobAction();
  if (health.error)
    return (
      <Alert color="red" role="alert">
        {t('admin.error', { message: health.error.message })}
      </Alert>
    );
  if (!health.data) return <Loader role="status" aria-label={t('app.loading')} />;
  const { queues, outbox } = health.data.data;
  return (
    <Stack gap="lg">
      <Text>
        {t('admin.queues.outbox', {
          pending: outbox.pending,
          lag: Math.round(outbox.lag_seconds),
          failed: outbox.failed,
        })}
      </Text>
      <Table striped aria-label={t('admin.tab.queues')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.queues.name')}</Table.Th>
            <Table.Th>{t('admin.queues.waiting')}</Table.Th>
            <Table.Th>{t('admin.queues.active')}</Table.Th>
            <Table.Th>{t('admin.queues.delayed')}</Table.Th>
            <Table.Th>{t('admin.queues.failed')}</Table.Th>
            <Table.Th>{t('admin.queues.oldest')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {queues.map((queue) => (
            <Table.Tr key={queue.name}>
              <Table.Th scope="row">{queue.name}</Table.Th>
              <Table.Td>{queue.waiting + queue.prioritized}</Table.Td>
              <Table.Td>{queue.active}</Table.Td>
              <Table.Td>{queue.delayed}</Table.Td>
              <Table.Td>{queue.failed}</Table.Td>
              <Table.Td>{Math.round(queue.oldest_waiting_seconds)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {action.isSuccess && (
        <Text size="sm" role="status">
          {t('admin.queues.done')}
        </Text>
      )}
      {action.error && (
        <Alert color="red" role="alert">
          {t('admin.error', { message: action.error.message })}
        </Alert>
      )}
      {queues
        .filter((queue) => queue.failed_jobs.length > 0)
        .map((queue) => (
          <section
            key={queue.name}
            aria-label={t('admin.queues.failedJobs', { queue: queue.name })}
          >
            <Title order={2} size="h4" mb="xs">
              {t('admin.queues.failedJobs', { queue: queue.name })}
            </Title>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.queues.job')}</Table.Th>
                  <Table.Th>{t('admin.queues.error')}</Table.Th>
                  <Table.Th>{t('admin.queues.attempts')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {queue.failed_jobs.map((job) => (
                  <Table.Tr key={job.id}>
                    <Table.Td>
                      {job.id} · {job.name}
                      {job.failed_at && (
                        <Text size="xs" c="dimmed">
                          {longTime(job.failed_at)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{job.failed_reason}</Table.Td>
                    <Table.Td>{job.attempts_made}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() =>
                            action.mutate({ action: 'retry', queue: queue.name, job: job.id })
                          }
                        >
                          {t('admin.queues.retry', { id: job.id })}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() =>
                            action.mutate({ action: 'remove', queue: queue.name, job: job.id })
                          }
                        >
                          {t('admin.queues.remove', { id: job.id })}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </section>
        ))}
    </Stack>
  );
}
