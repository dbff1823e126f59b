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
import { type ReactNode, useState } from 'react';
import { ApiError } from '../../../api/client';
import { isDomainReason, reasonSentence } from '../../../api/errors';
import type { Schemas } from '../../../../../shared/api/client';
import { isMessageKey, t } from '../../../i18n';

/** A member's role, as the API names it. */
export type Role = Schemas['AgentDto']['role'];

export function isAdmin(role: Role | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * The catalog's sentence for each field a failed call names (empty for any other failure): never
 * the server's text ("Lookup_columns must contain at least 1 elements."), which names wire fields.
 * A form that knows better picks its own sentence for a field (a plain http:// webhook address
 * names WEBHOOK_ALLOW_INSECURE); the rest come from `fieldSentence`.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  const reasons = error.fieldReasons();
  for (const field of Object.keys(error.fieldErrors())) {
    out[field] = fieldSentence(field, reasons[field]);
  }
  return out;
}

/**
 * The sentence for a refused field: a domain slug's own (`name_taken`); else by the field's wire
 * name without list positions, most specific first (`rules.2.account_column` →
 * `settings.field.rules.account_column`, then `settings.field.account_column`); else the
 * sentence of its generic rule (`too_long`), else the generic one.
 */
export function fieldSentence(field: string, reason?: string): string {
  const own = isDomainReason(reason) ? reasonSentence(reason) : undefined;
  if (own) return own;
  const parts = field.split('.').filter((part) => !/^\d+$/.test(part));
  for (let start = 0; start < parts.length; start++) {
    const key = `settings.field.${parts.slice(start).join('.')}`;
    if (isMessageKey(key)) return t(key);
  }
  return reasonSentence(reason) ?? t('settings.fieldError.generic');
}

/**
 * What a notice says about a failed call: for a refused field, the catalog's sentence for it;
 * otherwise the catalog's sentence for the error's reason (a conflict, a forbidden action; the
 * API's own text only for a reason the catalog lacks), or a generic one.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.keys(error.fieldErrors());
    if (fields.length === 1) return fieldSentence(fields[0], error.fieldReasons()[fields[0]]);
    if (fields.length > 1) return t('settings.fieldError.several');
  }
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

/**
 * A value with a copy button (snippets and secrets shown once). `compact`: no visible label (in
 * a table cell, whose column header says what it is); the button still names it.
 */
export function CopyField({
  label,
  value,
  compact = false,
}: {
  label: string;
  value: string;
  compact?: boolean;
}) {
  return (
    <Stack gap={4}>
      {!compact && (
        <Text size="sm" fw={500}>
          {label}
        </Text>
      )}
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
