import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../../../api/client';
import { useSites } from '../../../api/queries';
import { t } from '../../../i18n';
import { fieldErrorsOf, NoticeBar, QueryState, SectionHeader, useNotice, Tag } from '../kit/ui';
import { keys } from '../../../api/keys';

export default function SitesSettings() {
  const sites = useSites();
  const notice = useNotice();
  return (
    <>
      <SectionHeader
        title={t('settings.sites.title')}
        description={t('settings.sites.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={sites.isPending} error={sites.error} />
      {sites.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} mb="xl">
          {sites.data.map((site) => (
            <Card key={site.id} withBorder padding="lg" component="article">
              <Group justify="space-between" mb={4}>
                <Title order={3} size="h4">
                  {site.name}
                </Title>
                <Tag color={site.is_active ? 'teal' : 'gray'}>
                  {site.is_active ? t('settings.sites.active') : t('settings.sites.inactive')}
                </Tag>
              </Group>
              <Text size="sm" c="dimmed">
                {site.domain || t('settings.sites.noDomain')} · {site.timezone}
              </Text>
              <Group mt="md">
                <Button
                  component={Link}
                  to={`/settings/sites/${site.id}`}
                  variant="light"
                  size="xs"
                  aria-label={t('settings.sites.editNamed', { name: site.name })}
                >
                  {t('settings.sites.edit')}
                </Button>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <AddSiteForm />
    </>
  );
}

function AddSiteForm() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [domain, setDomain] = useState('');
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/sites', {
          body: {
            name,
            is_active: true,
            ...(domain ? { domain, allowed_domains: [domain] } : {}),
            timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          },
        }),
      ),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: keys.sites.all });
      void navigate(`/settings/sites/${result.data.id}`);
    },
  });
  const errors = fieldErrorsOf(add.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="add-site">
      <Title order={3} size="h4" id="add-site" mb="sm">
        {t('settings.sites.add')}
      </Title>
      <Stack>
        {add.error && !Object.keys(errors).length && (
          <Text c="red" role="alert">
            {add.error.message}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('settings.sites.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            required
          />
          <TextInput
            label={t('settings.sites.domain')}
            placeholder="www.example.com"
            value={domain}
            onChange={(e) => setDomain(e.currentTarget.value)}
            error={errors.domain ?? errors.allowed_domains}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={add.isPending}>
            {t('settings.sites.addButton')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
