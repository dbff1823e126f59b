import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { SearchHit } from '../../api/queries';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import { keys } from '../../api/keys';

const TYPES = ['messages', 'visitors', 'tickets'] as const;
type SearchType = (typeof TYPES)[number];

/** Full text over the organization's messages, visitors and tickets (the server's index). */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const type: SearchType = TYPES.find((v) => v === params.get('type')) ?? 'messages';
  const [text, setText] = useState(q);
  const results = useQuery({
    queryKey: keys.search.results(type, q),
    enabled: q.trim().length >= 2,
    queryFn: () =>
      unwrap(api.GET('/api/agent/search', { params: { query: { q, type, per_page: 50 } } })),
  });
  const go = (next: { q?: string; type?: SearchType }) =>
    setParams({ q: next.q ?? q, type: next.type ?? type });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ q: text.trim() });
  };

  return (
    <Container size="md" py="lg">
      <Title order={1} size="h2" mb="md">
        {t('search.title')}
      </Title>
      <Paper component="form" role="search" onSubmit={submit} withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label={t('search.field')}
              placeholder={t('search.placeholder')}
              type="search"
              leftSection={<IconSearch size={16} />}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              style={{ flex: 1 }}
              autoFocus
            />
            <Button type="submit">{t('search.submit')}</Button>
          </Group>
          <SegmentedControl
            aria-label={t('search.type')}
            value={type}
            onChange={(value) => go({ type: TYPES.find((v) => v === value) ?? 'messages' })}
            data={TYPES.map((value) => ({ value, label: t(`search.type.${value}`) }))}
            w="fit-content"
          />
        </Stack>
      </Paper>
      <Stack component="section" aria-label={t('search.results')} mt="lg" gap="sm">
        {q.trim().length < 2 ? (
          <Text c="dimmed">{t('search.hint')}</Text>
        ) : results.isPending ? (
          <Center p="xl">
            <Loader role="status" aria-label={t('app.loading')} />
          </Center>
        ) : results.isError ? (
          <Alert color="red" role="alert">
            {t('search.error', { message: results.error.message })}
          </Alert>
        ) : results.data.data.length === 0 ? (
          <Text c="dimmed" role="status">
            {t('search.empty', { q })}
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed" role="status">
              {t('search.count', { count: results.data.total })}
            </Text>
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
              {results.data.data.map((hit) => (
                <Hit key={`${hit.type}-${hit.id}`} hit={hit} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Container>
  );
}

/** What a hit says at the top: for a message, who wrote it to or from which visitor. */
function hitTitle(hit: SearchHit): string {
  if (hit.type !== 'message') return hit.title;
  const visitor = hit.visitor_name ?? t('search.hit.someVisitor');
  if (hit.private) return t('search.hit.note', { visitor });
  return hit.sender_type === 'visitor'
    ? t('search.hit.fromVisitor', { visitor })
    : t('search.hit.toVisitor', { visitor });
}

function Hit({ hit }: { hit: SearchHit }) {
  const title = hitTitle(hit);
  const to =
    hit.type === 'ticket' && hit.ticket_id !== null
      ? `/tickets/${hit.ticket_id}`
      : hit.conversation_id !== null
        ? `/inbox/${hit.conversation_id}`
        : undefined;
  return (
    <Paper component="li" withBorder radius="md" p="md">
      <Group justify="space-between" wrap="nowrap" mb={4}>
        {to ? (
          <Anchor component={Link} to={to} fw={600}>
            {title}
          </Anchor>
        ) : (
          <Text fw={600}>{title}</Text>
        )}
        <Group gap="xs" wrap="nowrap">
          {hit.private && (
            <Badge variant="light" color="yellow" size="sm" c="dark">
              {t('search.hit.private')}
            </Badge>
          )}
          <Badge variant="light" size="sm">
            {t(`search.type.${hit.type}s`)}
          </Badge>
          <Text size="xs" c="dimmed">
            {longTime(hit.created_at)}
          </Text>
        </Group>
      </Group>
      {hit.excerpt && (
        <Text size="sm" c="dimmed" lineClamp={3}>
          {hit.excerpt}
        </Text>
      )}
    </Paper>
  );
}
