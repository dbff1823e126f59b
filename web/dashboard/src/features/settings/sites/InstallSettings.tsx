import { Anchor, Card, Code, Group, List, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSites } from '../../../api/queries';
import { t } from '../../../i18n';
import { installSnippet } from './SiteEditor';
import { SiteSelect } from '../kit/SiteSelect';
import { CopyField, QueryState, SectionHeader } from '../kit/ui';

/**
 * Settings → Install: the snippet, the demo page and step-by-step guides (plain HTML, WordPress,
 * Shopify, React) for a site, reachable at any time (the inbox shows it only before the first
 * chat). `?site=` picks the site (links from the inbox and the site editor).
 */
export default function InstallSettings() {
  const [params] = useSearchParams();
  const asked = Number(params.get('site'));
  const [siteId, setSiteId] = useState<number | undefined>(
    Number.isInteger(asked) && asked > 0 ? asked : undefined,
  );
  const sites = useSites();
  const site = sites.data?.find((candidate) => candidate.id === siteId);
  return (
    <>
      <SectionHeader
        title={t('settings.install.title')}
        description={t('settings.install.description')}
      />
      <SiteSelect value={siteId} onChange={setSiteId} />
      <QueryState loading={sites.isPending} error={sites.error} />
      {site && (
        <InstallGuide
          key={site.id}
          siteId={site.id}
          siteName={site.name}
          widgetKey={site.widget_key}
        />
      )}
    </>
  );
}

function InstallGuide({
  siteId,
  siteName,
  widgetKey,
}: {
  siteId: number;
  siteName: string;
  widgetKey: string;
}) {
  const snippet = installSnippet(widgetKey);
  const origin = window.location.origin;
  const react = `import { useEffect } from 'react';

/** The support chat: render it once, in the app's root layout. */
export function SupportChat() {
  useEffect(() => {
    if (document.querySelector('script[data-widget-key]')) return;
    const script = document.createElement('script');
    script.async = true;
    script.src = '${origin}/widget.js';
    script.dataset.widgetKey = '${widgetKey}';
    document.body.appendChild(script);
  }, []);
  return null;
}`;
  const html = `<!-- … your page … -->
    ${snippet}
  </body>
</html>`;
  return (
    <Stack gap="xl">
      <Card withBorder padding="lg" component="section" aria-labelledby="install-snippet">
        <Title order={3} size="h4" id="install-snippet" mb="sm">
          {t('settings.install.snippetTitle', { site: siteName })}
        </Title>
        <Stack>
          <CopyField label={t('settings.sites.snippet')} value={snippet} />
          <Group gap="lg">
            <Anchor
              href={`/demo?widget_key=${encodeURIComponent(widgetKey)}`}
              target="_blank"
              rel="noopener"
            >
              <Group gap={4} component="span">
                {t('settings.sites.demo')}
                <IconExternalLink size={16} aria-hidden />
              </Group>
            </Anchor>
            <Anchor component={Link} to={`/settings/sites/${siteId}`}>
              {t('settings.install.domains')}
            </Anchor>
          </Group>
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="install-guides">
        <Title order={3} size="h4" id="install-guides" mb="sm">
          {t('settings.install.guides')}
        </Title>
        <Tabs defaultValue="html">
          <Tabs.List>
            <Tabs.Tab value="html">{t('settings.install.html')}</Tabs.Tab>
            <Tabs.Tab value="wordpress">WordPress</Tabs.Tab>
            <Tabs.Tab value="shopify">Shopify</Tabs.Tab>
            <Tabs.Tab value="react">React</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="html" pt="md">
            <Steps
              steps={[t('settings.install.html.1'), t('settings.install.html.2')]}
              code={html}
            />
          </Tabs.Panel>
          <Tabs.Panel value="wordpress" pt="md">
            <Steps
              steps={[
                t('settings.install.wordpress.1'),
                t('settings.install.wordpress.2'),
                t('settings.install.wordpress.3'),
              ]}
              note={t('settings.install.wordpress.theme')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="shopify" pt="md">
            <Steps
              steps={[
                t('settings.install.shopify.1'),
                t('settings.install.shopify.2'),
                t('settings.install.shopify.3'),
              ]}
            />
          </Tabs.Panel>
          <Tabs.Panel value="react" pt="md">
            <Steps
              steps={[t('settings.install.react.1'), t('settings.install.react.2')]}
              code={react}
            />
          </Tabs.Panel>
        </Tabs>
      </Card>
    </Stack>
  );
}

function Steps({ steps, code, note }: { steps: string[]; code?: string; note?: string }) {
  return (
    <Stack gap="sm">
      <List type="ordered" spacing="xs" size="sm">
        {steps.map((step) => (
          <List.Item key={step}>{step}</List.Item>
        ))}
      </List>
      {code && (
        <Code block tabIndex={0} style={{ overflowX: 'auto' }}>
          {code}
        </Code>
      )}
      {note && (
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}
