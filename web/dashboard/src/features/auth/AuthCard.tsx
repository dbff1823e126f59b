import { Anchor, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { t } from '../../i18n';

/** The frame of the pages before logging in: the product's name and one card. */
export function AuthCard(props: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: string;
  footerLink: { to: string; label: string };
}) {
  return (
    <Center component="main" mih="100vh" bg="var(--mantine-color-gray-0)" p="md">
      <Stack w="100%" maw={420} gap="lg">
        <Group gap="xs" justify="center">
          <IconMessages size={32} color="var(--mantine-color-indigo-6)" aria-hidden />
          <Text fw={700} size="xl">
            {t('app.name')}
          </Text>
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="lg">
          <Title order={1} size="h3">
            {props.title}
          </Title>
          <Text c="dimmed" size="sm" mt={4} mb="lg">
            {props.subtitle}
          </Text>
          {props.children}
        </Paper>
        <Text ta="center" size="sm">
          {props.footer}{' '}
          <Anchor component={Link} to={props.footerLink.to}>
            {props.footerLink.label}
          </Anchor>
        </Text>
      </Stack>
    </Center>
  );
}
