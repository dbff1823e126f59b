import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { fieldErrorsOf } from './ui';

/**
 * A "create" form of a settings page: a titled card whose submit button runs `onSubmit`, and the
 * request's error above the fields when it names no field (field errors sit under their fields).
 */
export function FormCard({
  id,
  title,
  submitLabel,
  submitting,
  error = null,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  submitLabel: string;
  submitting: boolean;
  /** The request's error, when the form sends one itself (forms that hand their values up pass none). */
  error?: Error | null;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby={id}>
      <Title order={3} size="h4" id={id} mb="sm">
        {title}
      </Title>
      <Stack>
        {error && Object.keys(fieldErrorsOf(error)).length === 0 && (
          <Text c="red" role="alert">
            {error.message}
          </Text>
        )}
        {children}
        <Group justify="flex-end">
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
