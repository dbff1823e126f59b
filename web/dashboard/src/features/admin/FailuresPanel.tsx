import { Alert, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import { useFailedMails, useFailingWebhooks } from './queries';

/** What is failing for the organizations on this service: webhook endpoints and mails. */
export function FailuresPanel() {
  return (
    <Stack gap="xl">
      <FailingWebhooks />
      <FailedMails />
    </Stack>
  );
}

function FailingWebhooks() {
  const endpoints = useFailingWebhooks();
  if (endpoints.error)
    return (
      <Alert color="red" role="alert">
        {t('admin.error', { message: endpoints.error.message })}
      </Alert>
    );
  if (!endpoints.data) return <Loader role="status" aria-label={t('app.loading')} />;
  return (
    <section aria-labelledby="admin-failing-webhooks">
      <Title order={2} size="h3" mb="sm" id="admin-failing-webhooks">
        {t('admin.failures.webhooks')}
      </Title>
      {endpoints.data.data.length === 0 ? (
        <Text c="dimmed">{t('admin.failures.noWebhooks')}</Text>
      ) : (
        <Table striped aria-labelledby="admin-failing-webhooks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.failures.endpoint')}</Table.Th>
              <Table.Th>{t('admin.failures.organization')}</Table.Th>
              <Table.Th>{t('admin.failures.since')}</Table.Th>
              <Table.Th>{t('admin.failures.failedDay')}</Table.Th>
              <Table.Th>{t('admin.failures.pending')}</Table.Th>
              <Table.Th>{t('admin.failures.last')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {endpoints.data.data.map((endpoint) => (
              <Table.Tr key={endpoint.id}>
                <Table.Th scope="row">{endpoint.url}</Table.Th>
                <Table.Td>{endpoint.organization.name}</Table.Td>
                <Table.Td>
                  {endpoint.disabled_at
                    ? t('admin.failures.disabled', {
                        date: longTime(endpoint.disabled_at),
                        reason: endpoint.disabled_reason ?? '',
                      })
                    : endpoint.failing_since && longTime(endpoint.failing_since)}
                </Table.Td>
                <Table.Td>{endpoint.failed_last_day}</Table.Td>
                <Table.Td>{endpoint.pending}</Table.Td>
                <Table.Td>
                  {endpoint.last_failure_at && `${longTime(endpoint.last_failure_at)}: `}
                  {endpoint.last_status_code === null
                    ? (endpoint.last_error ?? t('admin.failures.noAnswer'))
                    : t('admin.failures.status', { status: endpoint.last_status_code })}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}

function FailedMails() {
  const mails = useFailedMails();
  if (mails.error)
    return (
      <Alert color="red" role="alert">
        {t('admin.error', { message: mails.error.message })}
      </Alert>
    );
  if (!mails.data) return <Loader role="status" aria-label={t('app.loading')} />;
  const { failed_last_day, mails: rows } = mails.data.data;
  return (
    <section aria-labelledby="admin-failed-mails">
      <Title order={2} size="h3" mb="sm" id="admin-failed-mails">
        {t('admin.failures.mails')}
      </Title>
      <Text mb="sm">{t('admin.failures.mailsDay', { count: failed_last_day })}</Text>
      {rows.length === 0 ? (
        <Text c="dimmed">{t('admin.failures.noMails')}</Text>
      ) : (
        <Table striped aria-labelledby="admin-failed-mails">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.failures.failedAt')}</Table.Th>
              <Table.Th>{t('admin.failures.organization')}</Table.Th>
              <Table.Th>{t('admin.failures.kind')}</Table.Th>
              <Table.Th>{t('admin.failures.domain')}</Table.Th>
              <Table.Th>{t('admin.queues.error')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((mail) => (
              <Table.Tr key={mail.id}>
                <Table.Th scope="row">{longTime(mail.failed_at)}</Table.Th>
                <Table.Td>{mail.organization.name}</Table.Td>
                <Table.Td>{mail.kind}</Table.Td>
                <Table.Td>{mail.recipient_domain}</Table.Td>
                <Table.Td>{mail.last_error}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}
