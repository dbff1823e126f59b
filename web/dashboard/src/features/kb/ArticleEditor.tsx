import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Container,
  Grid,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Typography,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type KbArticle, useSiteNames } from '../../api/queries';
import { keys } from '../../api/keys';
import { longTime } from '../../components/format';
import { t } from '../../i18n';
import {
  KB_LOCALES,
  type KbLocale,
  type KbStatus,
  kbErrors,
  localeName,
  localeOptions,
  STATUS_COLOR,
  useKbArticle,
  useKbCategories,
} from './queries';
import { useCanEditKb } from './useKbRole';

const Preview = lazy(() => import('./Preview'));

interface Draft {
  site_id: number | undefined;
  locale: KbLocale;
  title: string;
  slug: string;
  category_id: string;
  excerpt: string;
  body: string;
}

const emptyDraft = (siteId: number | undefined, locale: KbLocale): Draft => ({
  site_id: siteId,
  locale,
  title: '',
  slug: '',
  category_id: '',
  excerpt: '',
  body: '',
});

const draftOf = (article: KbArticle): Draft => ({
  site_id: article.site_id,
  locale: article.locale,
  title: article.title,
  slug: article.slug,
  category_id: article.category_id === null ? '' : String(article.category_id),
  excerpt: article.excerpt ?? '',
  body: article.body,
});

type Notice = { kind: 'success' | 'error'; text: string } | null;

/** One article: the editor (owners and admins) or the article to read (agents). */
export function ArticleEditor() {
  const { articleId } = useParams();
  const id = articleId ? Number(articleId) : undefined;
  const article = useKbArticle(id);
  const canEdit = useCanEditKb();

  if (id !== undefined && !article.data) {
    return (
      <Container size="xl" py="lg">
        <BackLink />
        {article.isError ? (
          <Alert color="red" role="alert">
            {t('kb.editor.error')}
          </Alert>
        ) : (
          <Center p="xl">
            <Loader role="status" aria-label={t('kb.loading')} />
          </Center>
        )}
      </Container>
    );
  }
  if (!canEdit) {
    return article.data ? <ArticleReader article={article.data} /> : <BackLink />;
  }
  return <EditorForm key={id ?? 'new'} article={article.data} />;
}

function BackLink() {
  return (
    <Anchor component={Link} to="/kb" size="sm" mb="md" display="inline-flex">
      <Group gap={4} wrap="nowrap" component="span">
        <IconArrowLeft size={16} aria-hidden />
        {t('kb.back')}
      </Group>
    </Anchor>
  );
}

function StatusBadge({ status }: { status: KbStatus }) {
  return (
    <Badge variant="dot" color={STATUS_COLOR[status]} size="lg">
      {t(`kb.status.${status}`)}
    </Badge>
  );
}

function Stats({ article }: { article: KbArticle }) {
  return (
    <Text size="sm" c="dimmed">
      {t('kb.editor.stats', {
        views: article.views,
        yes: article.helpful,
        no: article.not_helpful,
      })}
    </Text>
  );
}

/** An agent's view: the article as visitors read it (the server's HTML) and its translations. */
function ArticleReader({ article }: { article: KbArticle }) {
  return (
    <Container size="xl" py="lg">
      <BackLink />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder radius="md" p="lg" component="article" aria-labelledby="kb-title">
            <Group justify="space-between" align="flex-start" mb="sm">
              <Title order={1} size="h2" id="kb-title">
                {article.title}
              </Title>
              <StatusBadge status={article.status} />
            </Group>
            <Stats article={article} />
            {article.excerpt && (
              <Text mt="sm" fs="italic">
                {article.excerpt}
              </Text>
            )}
            <Typography mt="md">
              {/* The server rendered it with raw HTML off: safe to show as it is. */}
              <div dangerouslySetInnerHTML={{ __html: article.html }} />
            </Typography>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Translations article={article} canEdit={false} />
        </Grid.Col>
      </Grid>
    </Container>
  );
}

function EditorForm({ article }: { article: KbArticle | undefined }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sites = useSiteNames().data ?? [];
  const [draft, setDraft] = useState<Draft>(() =>
    article
      ? draftOf(article)
      : emptyDraft(
          params.get('site') ? Number(params.get('site')) : undefined,
          KB_LOCALES.find((l) => l === params.get('locale')) ?? 'en',
        ),
  );
  // A notice can come along from the page before (a new article saved, a translation made).
  const carried = (useLocation().state as { notice?: Notice } | null)?.notice ?? null;
  const [notice, setNotice] = useState<Notice>(carried);
  const [deleting, confirmDelete] = useDisclosure();
  // A new article's site: the one chosen, else the first once the list is known.
  const siteId = draft.site_id ?? sites[0]?.id;
  const categories = useKbCategories(siteId, draft.locale).data ?? [];
  const set = (field: keyof Draft) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const save = useMutation({
    mutationFn: async (status: KbStatus | undefined) => {
      const fields = {
        title: draft.title.trim(),
        ...(draft.slug.trim() ? { slug: draft.slug.trim() } : {}),
        category_id: draft.category_id ? Number(draft.category_id) : null,
        excerpt: draft.excerpt.trim() || null,
        body: draft.body,
        status: status ?? article?.status ?? 'draft',
      };
      if (article) {
        return (
          await unwrap(
            api.PATCH('/api/agent/kb/articles/{article}', {
              params: { path: { article: article.id } },
              body: fields,
            }),
          )
        ).data;
      }
      return (
        await unwrap(
          api.POST('/api/agent/kb/articles', {
            body: { ...fields, site_id: siteId ?? 0, locale: draft.locale },
          }),
        )
      ).data;
    },
    onSuccess: (saved, status) => {
      queryClient.setQueryData(keys.kb.article(saved.id), saved);
      // The lists, and the other articles of its translation group (they show its title).
      void queryClient.invalidateQueries({
        queryKey: keys.kb.all,
        predicate: (query) => query.queryKey[2] !== saved.id,
      });
      setDraft(draftOf(saved));
      const text =
        status === 'published' && article?.status !== 'published'
          ? t('kb.editor.published')
          : status === 'archived'
            ? t('kb.editor.archived')
            : status === 'draft' && article && article.status !== 'draft'
              ? t('kb.editor.drafted')
              : t('kb.editor.saved');
      setNotice({ kind: 'success', text });
      if (!article) {
        void navigate(`/kb/articles/${saved.id}`, {
          replace: true,
          state: { notice: { kind: 'success', text } },
        });
      }
    },
    onError: (error) => setNotice({ kind: 'error', text: kbErrors(error).message ?? '' }),
  });

  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/agent/kb/articles/{article}', {
          params: { path: { article: article!.id } },
        }),
      ),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: keys.kb.article(article!.id) });
      void queryClient.invalidateQueries({ queryKey: keys.kb.all });
      void navigate('/kb');
    },
    onError: (error) => setNotice({ kind: 'error', text: kbErrors(error).message ?? '' }),
  });

  const errors = kbErrors(save.error).fields;
  const status = article?.status ?? 'draft';

  return (
    <Container size="xl" py="lg">
      <BackLink />
      <Group justify="space-between" align="center" mb="md">
        <Group gap="sm">
          <Title order={1} size="h2">
            {article ? article.title : t('kb.editor.newTitle')}
          </Title>
          <StatusBadge status={status} />
        </Group>
        {article && <Stats article={article} />}
      </Group>
      <div role={notice?.kind === 'error' ? 'alert' : 'status'} aria-live="polite">
        {notice && (
          <Alert
            role="none"
            color={notice.kind === 'error' ? 'red' : 'teal'}
            mb="md"
            withCloseButton
            closeButtonLabel={t('kb.cancel')}
            onClose={() => setNotice(null)}
          >
            {notice.text}
          </Alert>
        )}
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 9 }}>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate(article ? undefined : 'draft');
            }}
          >
            <Stack>
              {!article && (
                <Group grow align="flex-start">
                  <NativeSelect
                    label={t('kb.editor.site')}
                    data={sites.map((site) => ({ value: String(site.id), label: site.name }))}
                    value={siteId === undefined ? '' : String(siteId)}
                    onChange={(event) =>
                      setDraft((d) => ({
                        ...d,
                        site_id: Number(event.currentTarget.value),
                        category_id: '',
                      }))
                    }
                    error={errors.site_id}
                  />
                  <NativeSelect
                    label={t('kb.editor.locale')}
                    data={localeOptions}
                    value={draft.locale}
                    onChange={(event) => {
                      const locale = event.currentTarget.value as KbLocale;
                      setDraft((d) => ({ ...d, locale, category_id: '' }));
                    }}
                    error={errors.locale}
                  />
                </Group>
              )}
              <TextInput
                label={t('kb.editor.title')}
                value={draft.title}
                onChange={(event) => set('title')(event.currentTarget.value)}
                error={errors.title}
                required
              />
              <Group grow align="flex-start">
                <TextInput
                  label={t('kb.editor.slug')}
                  description={t('kb.editor.slugHint')}
                  value={draft.slug}
                  onChange={(event) => set('slug')(event.currentTarget.value)}
                  error={errors.slug}
                />
                <NativeSelect
                  label={t('kb.editor.category')}
                  data={[
                    { value: '', label: t('kb.noCategory') },
                    ...categories.map((c) => ({ value: String(c.id), label: c.name })),
                  ]}
                  value={draft.category_id}
                  onChange={(event) => set('category_id')(event.currentTarget.value)}
                  error={errors.category_id}
                />
              </Group>
              <Textarea
                label={t('kb.editor.excerpt')}
                description={t('kb.editor.excerptHint')}
                value={draft.excerpt}
                onChange={(event) => set('excerpt')(event.currentTarget.value)}
                error={errors.excerpt}
                autosize
                minRows={2}
              />
              <Grid gap="md">
                <Grid.Col span={{ base: 12, md: 6 }}>
                  <Textarea
                    label={t('kb.editor.body')}
                    value={draft.body}
                    onChange={(event) => set('body')(event.currentTarget.value)}
                    error={errors.body}
                    autosize
                    minRows={14}
                    maxRows={40}
                    styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 6 }}>
                  <Box component="section" aria-labelledby="kb-preview-title">
                    <Text id="kb-preview-title" size="sm" fw={500} mb={4}>
                      {t('kb.editor.preview')}
                    </Text>
                    <Paper withBorder radius="sm" p="md" mih={300}>
                      <Suspense fallback={<Loader size="sm" aria-label={t('kb.loading')} />}>
                        <Preview markdown={draft.body} />
                      </Suspense>
                    </Paper>
                  </Box>
                </Grid.Col>
              </Grid>
              <Group justify="space-between">
                <Group gap="sm">
                  {article ? (
                    <Button type="submit" variant="default" loading={save.isPending}>
                      {t('kb.editor.save')}
                    </Button>
                  ) : (
                    <Button type="submit" variant="default" loading={save.isPending}>
                      {t('kb.editor.saveDraft')}
                    </Button>
                  )}
                  {status !== 'published' && (
                    <Button onClick={() => save.mutate('published')} loading={save.isPending}>
                      {t('kb.editor.publish')}
                    </Button>
                  )}
                  {article && status === 'published' && (
                    <Button
                      variant="default"
                      onClick={() => save.mutate('draft')}
                      loading={save.isPending}
                    >
                      {t('kb.editor.unpublish')}
                    </Button>
                  )}
                  {article && status !== 'archived' && (
                    <Button
                      variant="default"
                      color="orange"
                      onClick={() => save.mutate('archived')}
                      loading={save.isPending}
                    >
                      {t('kb.editor.archive')}
                    </Button>
                  )}
                </Group>
                {article && (
                  <Button variant="subtle" color="red" onClick={confirmDelete.open}>
                    {t('kb.editor.delete')}
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 3 }}>
          {article && (
            <Stack>
              <Translations article={article} canEdit onNotice={setNotice} />
              {article.status === 'published' && (
                <Paper withBorder radius="md" p="md">
                  <Text size="sm" fw={500}>
                    {t('kb.editor.publicUrl')}
                  </Text>
                  <Anchor
                    href={article.url}
                    target="_blank"
                    rel="noopener"
                    size="sm"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {article.url}
                  </Anchor>
                  {article.published_at && (
                    <Text size="xs" c="dimmed">
                      {longTime(article.published_at)}
                    </Text>
                  )}
                </Paper>
              )}
            </Stack>
          )}
        </Grid.Col>
      </Grid>
      {article && (
        <Modal
          opened={deleting}
          onClose={confirmDelete.close}
          title={t('kb.editor.deleteTitle')}
          centered
          closeButtonProps={{ 'aria-label': t('app.close') }}
        >
          <Text mb="lg">{t('kb.editor.deleteMessage', { title: article.title })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={confirmDelete.close}>
              {t('kb.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => {
                confirmDelete.close();
                remove.mutate();
              }}
            >
              {t('kb.editor.delete')}
            </Button>
          </Group>
        </Modal>
      )}
    </Container>
  );
}

/**
 * The article's other languages, side by side with it: each translation (a link), and for each
 * language still missing, "Translate to …" creating a linked draft from this article's text.
 */
function Translations({
  article,
  canEdit,
  onNotice,
}: {
  article: KbArticle;
  canEdit: boolean;
  onNotice?: (notice: Notice) => void;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const taken = new Set([article.locale, ...article.translations.map((tr) => tr.locale)]);
  const missing = KB_LOCALES.filter((locale) => !taken.has(locale));
  const translate = useMutation({
    mutationFn: async (locale: KbLocale) =>
      (
        await unwrap(
          api.POST('/api/agent/kb/articles', {
            body: {
              site_id: article.site_id,
              locale,
              title: article.title,
              body: article.body,
              excerpt: article.excerpt,
              status: 'draft',
              translation_of: article.id,
            },
          }),
        )
      ).data,
    onSuccess: (created) => {
      queryClient.setQueryData(keys.kb.article(created.id), created);
      void queryClient.invalidateQueries({ queryKey: keys.kb.all });
      const text = t('kb.translations.created', { language: localeName(created.locale) });
      void navigate(`/kb/articles/${created.id}`, {
        state: { notice: { kind: 'success', text } },
      });
    },
    onError: (error) => onNotice?.({ kind: 'error', text: kbErrors(error).message ?? '' }),
  });
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="kb-translations">
      <Title order={2} size="h4" id="kb-translations" mb="sm">
        {t('kb.translations.title')}
      </Title>
      {article.translations.length === 0 ? (
        <Text size="sm" c="dimmed" mb="sm">
          {t('kb.translations.none')}
        </Text>
      ) : (
        <Stack gap="xs" mb="sm" component="ul" style={{ listStyle: 'none', padding: 0 }}>
          {article.translations.map((tr) => (
            <Box component="li" key={tr.id}>
              <Group gap="xs" justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={`/kb/articles/${tr.id}`} size="sm">
                  {localeName(tr.locale)}: {tr.title}
                  {tr.id === article.translation_of ? ` (${t('kb.translations.original')})` : ''}
                </Anchor>
                <Badge variant="dot" color={STATUS_COLOR[tr.status]} size="sm">
                  {t(`kb.status.${tr.status}`)}
                </Badge>
              </Group>
            </Box>
          ))}
        </Stack>
      )}
      {canEdit && (
        <Stack gap={6}>
          {missing.map((locale) => (
            <Button
              key={locale}
              variant="light"
              size="xs"
              justify="flex-start"
              loading={translate.isPending && translate.variables === locale}
              onClick={() => translate.mutate(locale)}
            >
              {t('kb.translations.translate', { language: localeName(locale) })}
            </Button>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
