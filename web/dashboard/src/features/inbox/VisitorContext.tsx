import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { VisitorPanelData } from '../../api/queries';
import { t } from '../../i18n';

type Panel = VisitorPanelData;

/** The visitor's local time in their own zone, named, moving with the clock. */
function useLocalTime(zone: string | null): string | undefined {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!zone) return;
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, [zone]);
  if (!zone) return undefined;
  try {
    const time = new Intl.DateTimeFormat(undefined, {
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      timeZone: zone,
    }).format(now);
    return t('inbox.panel.localTimeValue', { time, zone });
  } catch {
    return undefined;
  }
}

function Block({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack component="section" gap={6} aria-label={title}>
      <Title order={3} size="h6" c="dimmed" tt="uppercase">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const unknown = () => (
  <Text size="sm" c="dimmed">
    {t('inbox.panel.unknown')}
  </Text>
);

/**
 * Where the visitor is and with what (issue 26): the page they are on (live), the pages they
 * saw, where they came from, browser and system, their local time, and the custom fields by the
 * site's labels.
 */
export function VisitorContext({ visitor }: { visitor: Panel }) {
  const localTime = useLocalTime(visitor.timezone);
  const browser = visitor.browser;
  const browserText = browser.name
    ? [browser.name, browser.version?.split('.')[0]].filter(Boolean).join(' ')
    : undefined;
  const osText = browser.os
    ? [browser.os, browser.os_version].filter(Boolean).join(' ')
    : undefined;
  const rows: [string, string | undefined][] = [
    [t('inbox.panel.localTime'), localTime],
    [t('inbox.panel.browser'), browserText],
    [t('inbox.panel.os'), osText],
    [t('inbox.panel.referrer'), visitor.referrer ?? undefined],
  ];
  const earlierPages = visitor.pages_seen.slice(visitor.current_page.url ? 1 : 0);
  return (
    <>
      <Block title={t('inbox.panel.currentPage')}>
        {visitor.current_page.url ? (
          <Stack gap={0}>
            <Anchor
              href={visitor.current_page.url}
              target="_blank"
              rel="noreferrer"
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
            >
              {visitor.current_page.title || visitor.current_page.url}
            </Anchor>
            {visitor.current_page.title && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {visitor.current_page.url}
              </Text>
            )}
          </Stack>
        ) : (
          unknown()
        )}
      </Block>
      {earlierPages.length > 0 && (
        <Block title={t('inbox.panel.pagesSeen')}>
          <List size="sm" spacing={2} listStyleType="none" aria-label={t('inbox.panel.pagesSeen')}>
            {earlierPages.map((page) => (
              <List.Item key={`${page.url}-${page.seen_at}`} style={{ overflowWrap: 'anywhere' }}>
                <Anchor href={page.url} target="_blank" rel="noreferrer" size="sm">
                  {page.title || page.url}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Block>
      )}
      <Block title={t('inbox.panel.context')}>
        <Stack component="dl" gap="xs" m={0}>
          {rows.map(([label, value]) => (
            <div key={label}>
              <Text component="dt" size="xs" c="dimmed">
                {label}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {value ?? t('inbox.panel.unknown')}
              </Text>
            </div>
          ))}
        </Stack>
      </Block>
      {visitor.custom_field_list.length > 0 && (
        <Block title={t('inbox.panel.customFields')}>
          <Stack component="dl" gap="xs" m={0}>
            {visitor.custom_field_list.map((field) => (
              <div key={field.key}>
                <Text component="dt" size="xs" c="dimmed">
                  {field.label}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {field.value || t('inbox.panel.unknown')}
                </Text>
              </div>
            ))}
          </Stack>
        </Block>
      )}
    </>
  );
}
