import {
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  NativeSelect,
  Paper,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCategory, IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useUrlParams } from '../../app/use-url-params';
import { type KbArticleFilters, useSiteNames } from '../../api/queries';
import { shortTime } from '../../components/format';
import { ListBody, ListPager, pageParam } from '../../components/ListStates';
import { t } from '../../i18n';
import {
  KB_LOCALES,
  KB_STATUSES,
  localeName,
  localeOptions,
  STATUS_COLOR,
  statusOptions,
  useKbArticles,
  useAllKbCategories,
} from './queries';
import { useCanEditKb } from './useKbRole';

const ANY = { value: '', label: t('kb.filter.any') };

/** The articles, filtered by site, language, status and category, or searched. */
export function ArticleList() {
  const canEdit = useCanEditKb();
  const { params, setParam } = useUrlParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(text.trim(), 250);
  const siteNames = useSiteNames();
  const sites = siteNames.data ?? [];
  const siteId = params.get('site') ? Number(params.get('site')) : undefined;
  const filters: KbArticleFilters = {
    site_id: siteId,
    locale: KB_LOCALES.find((l) => l === params.get('locale')),
    status: KB_STATUSES.find((s) => s === params.get('status')),
    category_id: params.get('category') ? Number(params.get('category')) : undefined,
    q: q || undefined,
    page: pageParam(params),
  };
  const articles = useKbArticles(filters);
  const allCategories = useAllKbCategories().data ?? [];
  // The categories the filter offers: of the chosen site and language, when chosen.
  const categories = allCategories.filter(
    (c) =>
      (siteId === undefined || c.site_id === siteId) &&
      (filters.locale === undefined || c.locale === filters.locale),
  );
  const setFilter = (name: string, value: string) =>
    // A category belongs to one site and language; any filter starts again at the first page.
    setParam(name, value, name === 'site' || name === 'locale' ? ['category', 'page'] : ['page']);
  const rows = articles.data?.data ?? [];
  const categoryName = (id: number | null) =>
    id === null ? '—' : (allCategories.find((c) => c.id === id)?.name ?? '—');
  const newLink = `/kb/articles/new${siteId ? `?site=${siteId}` : ''}`;

  return (
    <Container size="xl" py="lg">
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          {t('kb.title')}
        </Title>
        <Group gap="sm">
          <Button
            component={Link}
            to={`/kb/categories${siteId ? `?site=${siteId}` : ''}`}
            variant="default"
            leftSection={<IconCategory size={16} />}
          >
            {t('kb.categories')}
          </Button>
          {canEdit && (
            <Button component={Link} to={newLink} leftSection={<IconPlus size={16} />}>
              {t('kb.new')}
            </Button>
          )}
        </Group>
      </Group>
      {!canEdit && (
        <Text c="dimmed" size="sm" mb="md">
          {t('kb.readOnly')}
        </Text>
      )}
      <Paper withBorder radius="md" p="md" mb="md" component="section" aria-label={t('kb.filters')}>
        <Group align="flex-end" grow preventGrowOverflow={false} wrap="wrap">
          <TextInput
            label={t('kb.filter.search')}
            leftSection={<IconSearch size={16} />}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              if (params.has('page')) setFilter('page', '');
            }}
            type="search"
            miw={200}
          />
          <NativeSelect
            label={t('kb.filter.site')}
            data={[ANY, ...sites.map((site) => ({ value: String(site.id), label: site.name }))]}
            value={params.get('site') ?? ''}
            onChange={(event) => setFilter('site', event.currentTarget.value)}
            miw={140}
          />
          <NativeSelect
            label={t('kb.filter.locale')}
            data={[ANY, ...localeOptions]}
            value={filters.locale ?? ''}
            onChange={(event) => setFilter('locale', event.currentTarget.value)}
            miw={120}
          />
          <NativeSelect
            label={t('kb.filter.status')}
            data={[ANY, ...statusOptions]}
            value={filters.status ?? ''}
            onChange={(event) => setFilter('status', event.currentTarget.value)}
            miw={120}
          />
          <NativeSelect
            label={t('kb.filter.category')}
            data={[
              ANY,
              ...categories.map((c) => ({
                value: String(c.id),
                label: filters.locale ? c.name : `${c.name} (${localeName(c.locale)})`,
              })),
            ]}
            value={params.get('category') ?? ''}
            onChange={(event) => setFilter('category', event.currentTarget.value)}
            miw={140}
          />
        </Group>
      </Paper>
      <ListBody
        loading={articles.isPending && !articles.data}
        loadingLabel={t('kb.loading')}
        failed={articles.isError}
        empty={rows.length === 0}
        errorText={t('kb.list.error')}
        emptyText={t('kb.list.empty')}
      >
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={760}>
            <Table highlightOnHover verticalSpacing="sm" aria-label={t('kb.list.label')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('kb.col.title')}</Table.Th>
                  <Table.Th>{t('kb.col.status')}</Table.Th>
                  <Table.Th>{t('kb.col.locale')}</Table.Th>
                  <Table.Th>{t('kb.col.category')}</Table.Th>
                  <Table.Th ta="end">{t('kb.col.views')}</Table.Th>
                  <Table.Th>{t('kb.col.helpful')}</Table.Th>
                  <Table.Th>{t('kb.col.updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((article) => (
                  <Table.Tr key={article.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/kb/articles/${article.id}`} fw={500}>
                        {article.title}
                      </Anchor>
                      {article.snippet && (
                        <Text
                          size="xs"
                          c="dimmed"
                          lineClamp={2}
                          // The server escapes the snippet; `<mark>` is its only markup.
                          dangerouslySetInnerHTML={{ __html: article.snippet }}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant="dot"
                        color={STATUS_COLOR[article.status]}
                        style={{ minWidth: 'max-content' }}
                      >
                        {t(`kb.status.${article.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{localeName(article.locale)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{categoryName(article.category_id)}</Text>
                    </Table.Td>
                    <Table.Td ta="end">
                      <Text size="sm">{article.views}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {t('kb.helpful.counts', { yes: article.helpful, no: article.not_helpful })}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {shortTime(article.updated_at)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {articles.data && (
            <ListPager
              page={articles.data}
              label={t('kb.list.label')}
              onPage={(page) => setParam('page', page > 1 ? String(page) : '')}
            />
          )}
        </Paper>
      </ListBody>
      {sites.length === 0 && siteNames.isSuccess && (
        <Text c="dimmed" mt="md">
          {t('kb.noSites')}
        </Text>
      )}
    </Container>
  );
}
