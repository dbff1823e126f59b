import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { api, ApiError, unwrap } from '../../api/client';
import { t } from '../../i18n';

/** The signed-in agent and organization (role decides which settings they may change). */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/agent/me')) });
}

export type Role = 'owner' | 'admin' | 'agent';

export function isAdmin(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/** The 422 message of each field of a failed call (empty for any other failure). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.fieldErrors() : {};
}

/** What a notice says about a failed call: the API's own sentence when it sent one. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : t('settings.error.generic');
}

export interface Notice {
  kind: 'success' | 'error';
  text: string;
}

/** Success and failure notices of one section, read out by screen readers as they change. */
export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  return {
    notice,
    success: (text: string) => setNotice({ kind: 'success', text }),
    failure: (error: unknown) => setNotice({ kind: 'error', text: errorMessage(error) }),
    /** Something that went wrong although the call itself succeeded (a failed test ping). */
    problem: (text: string) => setNotice({ kind: 'error', text }),
    clear: () => setNotice(null),
  };
}

export function NoticeBar({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  return (
    <div role={notice?.kind === 'error' ? 'alert' : 'status'} aria-live="polite">
      {notice && (
        <Alert
          color={notice.kind === 'error' ? 'red' : 'teal'}
          // The region around it speaks (a status, or an alert for an error): not a second alert.
          role="none"
          withCloseButton
          closeButtonLabel={t('settings.notice.dismiss')}
          onClose={onClose}
          mb="md"
        >
          {notice.text}
        </Alert>
      )}
    </div>
  );
}

export function SectionHeader({ title, description }: { title: string; description?: string }) {
  return (
    <Stack gap={4} mb="lg">
      <Title order={2}>{title}</Title>
      {description && (
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      )}
    </Stack>
  );
}

/** A loading or failed query, shown in place of the section's content. */
export function QueryState({ error, loading }: { error: unknown; loading: boolean }) {
  if (error) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(error)}
      </Alert>
    );
  }
  if (loading) {
    return (
      <Text c="dimmed" role="status">
        {t('settings.loading')}
      </Text>
    );
  }
  return null;
}

/** A value with a copy button (snippets and secrets shown once). */
export function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('settings.copied') : t('settings.copy')}>
              <ActionIcon
                variant="light"
                size="lg"
                color={copied ? 'teal' : undefined}
                onClick={copy}
                aria-label={t('settings.copyLabel', { label })}
              >
                {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/**
 * Changing an item in place: the button opens a dialog holding the item's form (`children`,
 * filled by `onOpen`); Save runs `onSave`, and the dialog closes once it succeeded.
 */
export function EditButton({
  label,
  title,
  onOpen,
  onSave,
  saving,
  error,
  children,
}: {
  label: string;
  title: string;
  onOpen: () => void;
  onSave: () => Promise<unknown>;
  saving: boolean;
  error: unknown;
  children: ReactNode;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const fieldErrors = fieldErrorsOf(error);
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        onClick={() => {
          onOpen();
          open();
        }}
      >
        {label}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': t('app.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSave().then(close, () => undefined);
          }}
        >
          <Stack>
            {error != null && !Object.keys(fieldErrors).length && (
              <Text c="red" role="alert">
                {errorMessage(error)}
              </Text>
            )}
            {children}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('settings.cancel')}
              </Button>
              <Button type="submit" loading={saving}>
                {t('settings.saveChanges')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** A destructive action behind a confirmation dialog (focus moves into it and back). */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel,
  onConfirm,
  loading,
}: {
  label: string;
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  loading?: boolean;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="subtle" color="red" size="xs" onClick={open} loading={loading}>
        {label}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': t('app.close') }}
      >
        <Text mb="lg">{message}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('settings.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() => {
              close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** A date-time as the agent's browser shows it, or a dash. */
export function formatDateTime(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : '—';
}

/** A status tag: a coloured dot beside dark text (coloured text on a tint misses 4.5:1). */
export function Tag({
  color = 'indigo',
  size,
  mb,
  children,
}: {
  color?: string;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  mb?: number;
  children: ReactNode;
}) {
  return (
    <Badge variant="dot" color={color} size={size} mb={mb}>
      {children}
    </Badge>
  );
}
