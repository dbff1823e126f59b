import { Alert, Container, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMe } from '../../api/queries';
import { t } from '../../i18n';

export default function AccountPage() {
  const me = useMe().data;
  if (!me) return null;
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          {t('auth.account.title')}
        </Title>
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h4" mb="md">
            {t('auth.account.profile')}
          </Title>
          <SimpleGrid cols={2} spacing="xs">
            <Text c="dimmed">{t('auth.field.name')}</Text>
            <Text>{me.user.name}</Text>
            <Text c="dimmed">{t('auth.field.email')}</Text>
            <Text>{me.user.email}</Text>
            <Text c="dimmed">{t('auth.account.role')}</Text>
            <Text tt="capitalize">{me.user.role}</Text>
            <Text c="dimmed">{t('auth.account.organization')}</Text>
            <Text>{me.organization.name}</Text>
          </SimpleGrid>
        </Paper>
        <Alert color="gray">{t('auth.account.notAvailable')}</Alert>
      </Stack>
    </Container>
  );
}
