import { CloseButton, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Attachment, CannedResponse } from '../../api/queries';
import { t } from '../../i18n';

/** The canned-response suggestions the reply box points its arrow keys at. */
export const CANNED_LIST = 'canned-suggestions';

/** The canned responses matching `/shortcut`, the active one marked for the arrow keys. */
export function CannedSuggestions({
  suggestions,
  active,
  onPick,
}: {
  suggestions: CannedResponse[];
  active: number;
  onPick: (body: string) => void;
}) {
  if (suggestions.length === 0) return null;
  return (
    <Stack gap={2} mb={6}>
      <Stack gap={2} role="listbox" id={CANNED_LIST} aria-label={t('inbox.canned.label')}>
        {suggestions.map((c, index) => (
          <UnstyledButton
            key={c.id}
            id={`canned-${c.id}`}
            role="option"
            aria-selected={index === active}
            tabIndex={-1}
            onClick={() => onPick(c.body)}
            px="sm"
            py={6}
            style={{
              borderRadius: 'var(--mantine-radius-sm)',
              background: index === active ? 'var(--mantine-color-indigo-0)' : undefined,
            }}
          >
            <Text size="sm" truncate>
              <Text span fw={600} ff="monospace">
                /{c.shortcut}
              </Text>{' '}
              {c.body}
            </Text>
          </UnstyledButton>
        ))}
      </Stack>
      <Text size="xs" c="dimmed">
        {t('inbox.canned.hint')}
      </Text>
    </Stack>
  );
}

/** The files attached to the reply, each removable. */
export function AttachedFiles({
  files,
  onRemove,
}: {
  files: Attachment[];
  onRemove: (id: number) => void;
}) {
  if (files.length === 0) return null;
  return (
    <Group gap="xs" mb={6} role="group" aria-label={t('inbox.composer.attached')}>
      {files.map((file) => (
        <Paper key={file.id} withBorder px="xs" py={2} radius="sm">
          <Group gap={4} wrap="nowrap">
            <Text size="sm" truncate maw={220}>
              {file.file_name}
            </Text>
            <CloseButton
              size="sm"
              aria-label={t('inbox.composer.removeFile', { name: file.file_name })}
              onClick={() => onRemove(file.id)}
            />
          </Group>
        </Paper>
      ))}
    </Group>
  );
}
