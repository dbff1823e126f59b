import { Badge, Stack, Text, Title } from '@mantine/core';
import type { ConversationDetail, Site } from '../../api/queries';
import { longTime } from '../../components/format';
import { t, type MessageKey } from '../../i18n';
import { STATUS_COLOR, visitorName } from './names';

/** Who the visitor is and where they came from. */
export function VisitorPanel({
  conversation,
  sites,
}: {
  conversation: ConversationDetail;
  sites: Site[];
}) {
  const site = sites.find((s) => s.id === conversation.site_id);
  const rows: [MessageKey, string][] = [
    ['inbox.panel.name', conversation.visitor.name || t('inbox.panel.unknown')],
    ['inbox.panel.email', conversation.visitor.email || t('inbox.panel.unknown')],
    ['inbox.panel.site', site?.name ?? String(conversation.site_id)],
    ['inbox.panel.language', conversation.locale ?? t('inbox.panel.unknown')],
    ['inbox.panel.started', longTime(conversation.started_at)],
    ['inbox.panel.conversation', `#${conversation.id}`],
  ];
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
      <Stack component="dl" gap="xs" m={0}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {t(label)}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </div>
        ))}
      </Stack>
    </Stack>
  );
}
