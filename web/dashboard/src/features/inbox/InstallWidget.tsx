import { Anchor, Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Site } from '../../api/queries';
import { t } from '../../i18n';

/** The first-run guide: the site's snippet, a copy button and the demo page to try it on. */
export function InstallWidget({ site }: { site: Site }) {
  const origin = window.location.origin;
  const snippet = `<script async src="${origin}/widget.js" data-widget-key="${site.widget_key}"></script>`;
  return (
    <Paper withBorder radius="lg" p="xl" maw={620} shadow="xs">
      <Stack gap="md">
        <Title order={2} size="h3">
          {t('inbox.install.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('inbox.install.body', { site: site.domain ?? site.name })}
        </Text>
        <Code block aria-label={t('inbox.install.snippet')} style={{ whiteSpace: 'pre-wrap' }}>
          {snippet}
        </Code>
        <Group>
          <CopyButton value={snippet}>
            {({ copied, copy }) => (
              <Button
                onClick={copy}
                color={copied ? 'teal' : 'indigo'}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? t('inbox.install.copied') : t('inbox.install.copy')}
              </Button>
            )}
          </CopyButton>
          <Anchor
            href={`/demo?widget_key=${encodeURIComponent(site.widget_key)}`}
            target="_blank"
            rel="noreferrer"
          >
            <Group gap={4}>
              {t('inbox.install.demo')}
              <IconExternalLink size={14} aria-hidden />
            </Group>
          </Anchor>
          <Anchor component={Link} to={`/settings/install?site=${site.id}`}>
            {t('inbox.install.guides')}
          </Anchor>
        </Group>
      </Stack>
    </Paper>
  );
}
