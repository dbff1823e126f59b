import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowDown, IconArrowLeft, IconArrowUp } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useUrlParams } from '../../app/use-url-params';
import { api, unwrap } from '../../api/client';
import { type KbCategory, useSiteNames } from '../../api/queries';
import { keys } from '../../api/keys';
import { t } from '../../i18n';
import { KB_LOCALES, type KbLocale, kbErrors, localeOptions, useKbCategories } from './queries';
import { useCanEditKb } from './useKbRole';

type Notice = { kind: 'success' | 'error'; text: string } | null;

/** A site's categories in one language: listed in order; owners and admins add, rename, reorder, delete. */
export function CategoriesPage() {
  const canEdit = useCanEditKb();
  const { params, edit } = useUrlParams();
  const sites = useSiteNames().data ?? [];
  const siteId = params.get('site') ? Number(params.get('site')) : sites[0]?.id;
  const locale: KbLocale = KB_LOCALES.find((l) => l === params.get('locale')) ?? 'en';
  const categories = useKbCategories(siteId, locale);
  const list = [...(categories.data ?? [])].sort(
    (a, b) => a.position - b.position || a.name.localeCompare(b.name),
  );
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.kb.categories });
  const failed = (error: unknown) =>
    setNotice({
      kind: 'error',
      text: kbErrors(error, 'kb.error.categorySlugTaken').message ?? '',
    });
  const setParam = (key: string, value: string) => edit((next) => next.set(key, value));

  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/kb/categories', {
          body: {
            site_id: siteId ?? 0,
            locale,
            name: name.trim(),
            position: list.length ? Math.max(...list.map((c) => c.position)) + 1 : 0,
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setNotice({ kind: 'success', text: t('kb.categories.saved') });
      return refresh();
    },
    onError: failed,
  });
  // Reordering numbers the whole list again, so equal positions never leave the order open.
  const move = useMutation({
    mutationFn: async ({ from, to }: { from: number; to: number }) => {
      const order = [...list];
      const [moved] = order.splice(from, 1);
      order.splice(to, 0, moved);
      for (const [index, category] of order.entries()) {
        if (category.position === index) continue;
        await unwrap(
          api.PATCH('/api/agent/kb/categories/{category}', {
            params: { path: { category: category.id } },
            body: { position: index },
          }),
        );
      }
    },
    onSuccess: () => {
      create.reset();
      setNotice({ kind: 'success', text: t('kb.categories.saved') });
      return refresh();
    },
    onError: (error) => {
      failed(error);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.DELETE('/api/agent/kb/categories/{category}', {
          params: { path: { category: id } },
        }),
      ),
    onSuccess: () => {
      create.reset();
      setNotice({ kind: 'success', text: t('kb.categories.saved') });
      void queryClient.invalidateQueries({ queryKey: keys.kb.all });
    },
    onError: failed,
  });
  const createErrors = kbErrors(create.error, 'kb.error.categorySlugTaken').fields;

  return (
    <Container size="md" py="lg">
      <Anchor component={Link} to="/kb" size="sm" mb="md" display="inline-flex">
        <Group gap={4} wrap="nowrap" component="span">
          <IconArrowLeft size={16} aria-hidden />
          {t('kb.back')}
        </Group>
      </Anchor>
      <Title order={1} size="h2" mb="md">
        {t('kb.categories.title')}
      </Title>
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
      <Group grow mb="md" align="flex-end">
        <NativeSelect
          label={t('kb.categories.site')}
          data={sites.map((site) => ({ value: String(site.id), label: site.name }))}
          value={siteId === undefined ? '' : String(siteId)}
          onChange={(event) => setParam('site', event.currentTarget.value)}
        />
        <NativeSelect
          label={t('kb.categories.locale')}
          data={localeOptions}
          value={locale}
          onChange={(event) => setParam('locale', event.currentTarget.value)}
        />
      </Group>
      <Paper withBorder radius="md" p="md" mb="md">
        {list.length === 0 ? (
          <Text c="dimmed">
            {categories.isPending ? t('kb.loading') : t('kb.categories.empty')}
          </Text>
        ) : (
          <Stack
            component="ol"
            gap={0}
            aria-label={t('kb.categories.list')}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {list.map((category, index) => (
              <Group
                component="li"
                key={category.id}
                justify="space-between"
                py="xs"
                wrap="nowrap"
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              >
                <Text fw={500}>{category.name}</Text>
                {canEdit && (
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      disabled={index === 0 || move.isPending}
                      aria-label={t('kb.categories.up', { name: category.name })}
                      onClick={() => move.mutate({ from: index, to: index - 1 })}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      disabled={index === list.length - 1 || move.isPending}
                      aria-label={t('kb.categories.down', { name: category.name })}
                      onClick={() => move.mutate({ from: index, to: index + 1 })}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                    <RenameButton category={category} onDone={refresh} onNotice={setNotice} />
                    <DeleteButton
                      category={category}
                      onConfirm={() => remove.mutate(category.id)}
                    />
                  </Group>
                )}
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
      {canEdit && (
        <Paper
          withBorder
          radius="md"
          p="md"
          component="form"
          aria-label={t('kb.categories.new')}
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label={t('kb.categories.new')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={createErrors.name ?? createErrors.slug}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={create.isPending} disabled={siteId === undefined}>
              {t('kb.categories.add')}
            </Button>
          </Group>
        </Paper>
      )}
    </Container>
  );
}

function RenameButton({
  category,
  onDone,
  onNotice,
}: {
  category: KbCategory;
  onDone: () => unknown;
  onNotice: (notice: Notice) => void;
}) {
  const [opened, { open, close }] = useDisclosure();
  const [name, setName] = useState(category.name);
  const rename = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/api/agent/kb/categories/{category}', {
          params: { path: { category: category.id } },
          body: { name: name.trim(), position: category.position },
        }),
      ),
    onSuccess: () => {
      close();
      onNotice({ kind: 'success', text: t('kb.categories.saved') });
      return onDone();
    },
  });
  const errors = kbErrors(rename.error, 'kb.error.categorySlugTaken');
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        aria-label={t('kb.categories.renameLabel', { name: category.name })}
        onClick={() => {
          setName(category.name);
          rename.reset();
          open();
        }}
      >
        {t('kb.categories.rename')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('kb.categories.renameTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('app.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate();
          }}
        >
          <Stack>
            <TextInput
              label={t('kb.categories.name')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={
                errors.fields.name ??
                (errors.message && !errors.fields.name ? errors.message : undefined)
              }
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('kb.cancel')}
              </Button>
              <Button type="submit" loading={rename.isPending}>
                {t('kb.categories.rename')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

function DeleteButton({ category, onConfirm }: { category: KbCategory; onConfirm: () => void }) {
  const [opened, { open, close }] = useDisclosure();
  return (
    <>
      <Button
        variant="subtle"
        color="red"
        size="xs"
        aria-label={t('kb.categories.deleteLabel', { name: category.name })}
        onClick={open}
      >
        {t('kb.categories.delete')}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={t('kb.categories.deleteTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('app.close') }}
      >
        <Text mb="lg">{t('kb.categories.deleteMessage', { name: category.name })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('kb.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              close();
              onConfirm();
            }}
          >
            {t('kb.categories.delete')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
