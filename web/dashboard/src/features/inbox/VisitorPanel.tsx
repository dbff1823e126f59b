import { Anchor, Badge, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { agentChannel } from '../../api/socket';
import { type ConversationDetail, type SiteName, useMe } from '../../api/queries';
import { longTime } from '../../components/format';
import { t, type MessageKey } from '../../i18n';
import { reviewText, STATUS_COLOR, visitorName } from './names';
import { VisitorPrivacy } from './VisitorPrivacy';
import { VisitorContext } from './VisitorContext';
import { keys } from '../../api/keys';

function useVisitorPanel(visitorId: number) {
  return useQuery({
    queryKey: keys.visitorPanel.one(visitorId),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/agent/visitors/{visitor}', {
            params: { path: { visitor: visitorId } },
          }),
        )
      ).data,
  });
}

function Rows({ rows }: { rows: [string, string][] }) {
  return (
    <Stack component="dl" gap="xs" m={0}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      ))}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack component="section" gap={6} aria-label={title}>
      <Title order={3} size="h6" c="dimmed" tt="uppercase">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Who the visitor is, where they are, and what they did before. */
export function VisitorPanel({
  conversation,
  sites,
}: {
  conversation: ConversationDetail;
  sites: SiteName[];
}) {
  const site = sites.find((s) => s.id === conversation.site_id);
  const panel = useVisitorPanel(conversation.visitor.id);
  const role = useMe().data?.user.role;
  // The privacy actions are the owners' and admins' (the API refuses agents too).
  const canManage = role === 'owner' || role === 'admin';
  const visitor = panel.data;
  const rows: [MessageKey, string][] = [
    ['inbox.panel.name', conversation.visitor.name || t('inbox.panel.unknown')],
    ['inbox.panel.email', conversation.visitor.email || t('inbox.panel.unknown')],
    ['inbox.panel.phone', visitor?.phone || t('inbox.panel.unknown')],
    ['inbox.panel.country', visitor?.country || t('inbox.panel.unknown')],
    ['inbox.panel.site', site?.name ?? String(conversation.site_id)],
    ['inbox.panel.language', conversation.locale ?? t('inbox.panel.unknown')],
    ['inbox.panel.started', longTime(conversation.started_at)],
    ['inbox.panel.conversation', `#${conversation.id}`],
    [
      'inbox.panel.rating',
      conversation.rating !== null
        ? reviewText(conversation.rating, conversation.review_comment)
        : t('inbox.panel.notRated'),
    ],
  ];
  const earlier = visitor?.conversations.filter((c) => c.id !== conversation.id) ?? [];
  // The page the visitor moves to, live (the widget tells the server, the server the agents).
  const queryClient = useQueryClient();
  const visitorId = conversation.visitor.id;
  // The page the visitor moves to and an appointment they book show up live.
  useEffect(() => {
    const reload = (event: { visitor_id: number }) => {
      if (event.visitor_id === visitorId) {
        void queryClient.invalidateQueries({ queryKey: keys.visitorPanel.one(visitorId) });
      }
    };
    const offPage = agentChannel.on('visitor.page', reload);
    const offBooked = agentChannel.on('appointment.booked', reload);
    return () => {
      offPage();
      offBooked();
    };
  }, [queryClient, visitorId]);
  return (
    <Stack p="md" gap="md">
      <Title order={2} size="h5" c="dimmed" tt="uppercase">
        {t('inbox.panel.title')}
      </Title>
      <Stack gap={2}>
        <Text fw={600} size="lg">
          {visitorName(conversation.visitor)}
        </Text>
        <Badge variant="light" color={STATUS_COLOR[conversation.status]} w="fit-content">
          {t(`inbox.status.${conversation.status}`)}
        </Badge>
      </Stack>
      <Rows rows={rows.map(([label, value]) => [t(label), value])} />
      {panel.isPending && <Loader size="sm" role="status" aria-label={t('app.loading')} />}
      {panel.isError && (
        <Text size="sm" c="red.8" role="alert">
          {t('inbox.panel.error')}
        </Text>
      )}
      {visitor && (
        <>
          <Section title={t('inbox.panel.account')}>
            <Text size="sm">
              {visitor.account_login.logged_in
                ? t('inbox.panel.loggedIn', {
                    identifier: visitor.account_login.identifier ?? '',
                  })
                : t('inbox.panel.notLoggedIn')}
            </Text>
          </Section>
          <VisitorContext visitor={visitor} />
          <Section title={t('inbox.panel.conversations')}>
            {earlier.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('inbox.panel.none')}
              </Text>
            ) : (
              earlier.map((c) => (
                <Stack key={c.id} gap={0}>
                  <Group gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={`/inbox/${c.id}`} size="sm">
                      {t('inbox.panel.conversationLink', {
                        id: c.id,
                        date: longTime(c.started_at),
                      })}
                    </Anchor>
                    <Badge
                      size="xs"
                      variant="light"
                      color={STATUS_COLOR[c.status]}
                      style={{ flexShrink: 0 }}
                    >
                      {t(`inbox.status.${c.status}`)}
                    </Badge>
                  </Group>
                  {c.rating !== null && (
                    <Text size="xs">{reviewText(c.rating, c.review_comment)}</Text>
                  )}
                </Stack>
              ))
            )}
          </Section>
          <Section title={t('inbox.panel.tickets')}>
            {visitor.tickets.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('inbox.panel.none')}
              </Text>
            ) : (
              visitor.tickets.map((ticket) => (
                <Anchor key={ticket.id} component={Link} to={`/tickets/${ticket.id}`} size="sm">
                  {`${ticket.ticket_number}: ${ticket.subject}`}
                </Anchor>
              ))
            )}
          </Section>
          <Section title={t('inbox.panel.appointments')}>
            {visitor.appointments.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('inbox.panel.none')}
              </Text>
            ) : (
              visitor.appointments.map((appointment) => (
                <Text key={appointment.id} size="sm">
                  {t('inbox.panel.appointment', {
                    date: longTime(appointment.scheduled_at),
                    status: appointment.status,
                  })}
                </Text>
              ))
            )}
          </Section>
          {canManage && (
            <Section title={t('inbox.privacy.title')}>
              <VisitorPrivacy
                visitorId={conversation.visitor.id}
                onErased={() => void panel.refetch()}
              />
            </Section>
          )}
        </>
      )}
    </Stack>
  );
}
