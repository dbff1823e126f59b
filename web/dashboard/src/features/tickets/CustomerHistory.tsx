import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { shortTime } from '../../components/format';
import { t, type MessageKey } from '../../i18n';
import { STATUS_COLOR } from './options';

const CHAT_STATUS: Record<string, MessageKey> = {
  waiting: 'tickets.customer.chatStatus.waiting',
  active: 'tickets.customer.chatStatus.active',
  closed: 'tickets.customer.chatStatus.closed',
  missed: 'tickets.customer.chatStatus.missed',
};

/** The ticket's customer elsewhere: their other tickets and their chats, linked. */
export function CustomerHistory({ ticketId }: { ticketId: number }) {
  const history = useQuery({
    queryKey: keys.tickets.customer(ticketId),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/agent/tickets/{ticket}/customer', {
            params: { path: { ticket: ticketId } },
          }),
        )
      ).data,
  });
  const data = history.data;
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="ticket-customer">
      <Title order={2} size="h5" id="ticket-customer" mb="sm">
        {t('tickets.customer.title')}
      </Title>
      {history.isError && (
        <Text c="red" size="sm" role="alert">
          {t('tickets.customer.error')}
        </Text>
      )}
      {data && (
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={3} size="h6">
              {t('tickets.customer.tickets')}
            </Title>
            {data.tickets.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('tickets.customer.noTickets')}
              </Text>
            ) : (
              <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {data.tickets.map((ticket) => (
                  <Group key={ticket.id} component="li" gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={`/tickets/${ticket.id}`} size="sm" lineClamp={1}>
                      {`${ticket.ticket_number}: ${ticket.subject}`}
                    </Anchor>
                    <Badge
                      size="xs"
                      variant="light"
                      color={STATUS_COLOR[ticket.status]}
                      style={{ flexShrink: 0 }}
                    >
                      {t(`tickets.status.${ticket.status}`)}
                    </Badge>
                  </Group>
                ))}
              </Stack>
            )}
          </Stack>
          <Stack gap={4}>
            <Title order={3} size="h6">
              {t('tickets.customer.chats')}
            </Title>
            {data.conversations.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('tickets.customer.noChats')}
              </Text>
            ) : (
              <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {data.conversations.map((chat) => (
                  <li key={chat.id}>
                    <Anchor component={Link} to={`/inbox/${chat.id}`} size="sm">
                      {t('tickets.customer.chat', {
                        id: chat.id,
                        time: shortTime(chat.started_at),
                        status: t(CHAT_STATUS[chat.status]),
                      })}
                    </Anchor>
                  </li>
                ))}
              </Stack>
            )}
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
