import { Button, Group, Menu, Modal, Text, TextInput } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n';
import { snoozePresets, toLocalInput } from './snooze-times';

/**
 * Snooze: the conversation leaves the open views until a time (a preset or one of the agent's
 * choosing) and comes back then, or when the visitor writes. A snoozed one can be woken now.
 */
export function SnoozeMenu({
  conversationId,
  snoozedUntil,
  disabled,
  open,
  onOpenChange,
}: {
  conversationId: number;
  snoozedUntil: string | null;
  disabled: boolean;
  /** Opened from the keyboard too (the shortcut). */
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [custom, setCustom] = useState<string | undefined>();
  const snooze = useMutation({
    mutationFn: (until: Date | null) =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/snooze', {
          params: { path: { conversation: conversationId } },
          body: { until: until ? until.toISOString() : null },
        }),
      ),
    onSuccess: () => setCustom(undefined),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keys.conversations.one(conversationId) });
      void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
    },
  });
  const submitCustom = (event: FormEvent) => {
    event.preventDefault();
    if (custom) snooze.mutate(new Date(custom));
  };

  return (
    <>
      {/* Without Mantine's initial-focus placeholder: a focusable role="presentation" is not
          allowed inside a menu (axe); the arrow keys reach the items all the same. */}
      <Menu
        position="bottom-end"
        opened={open}
        onChange={onOpenChange}
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <Button
            variant="default"
            size="sm"
            leftSection={<IconClock size={16} aria-hidden />}
            loading={snooze.isPending}
            disabled={disabled}
          >
            {t('inbox.snooze.button')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {snoozePresets(new Date()).map((preset) => (
            <Menu.Item key={preset.key} onClick={() => snooze.mutate(preset.until)}>
              {t(`inbox.snooze.${preset.key}`)}
            </Menu.Item>
          ))}
          <Menu.Item onClick={() => setCustom(toLocalInput(new Date(Date.now() + 3_600_000)))}>
            {t('inbox.snooze.custom')}
          </Menu.Item>
          {snoozedUntil && (
            <>
              <Menu.Divider />
              <Menu.Item onClick={() => snooze.mutate(null)}>{t('inbox.snooze.wake')}</Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={custom !== undefined}
        onClose={() => setCustom(undefined)}
        title={t('inbox.snooze.customTitle')}
        closeButtonProps={{ 'aria-label': t('app.close') }}
      >
        <form onSubmit={submitCustom}>
          <TextInput
            type="datetime-local"
            label={t('inbox.snooze.customLabel')}
            value={custom ?? ''}
            min={toLocalInput(new Date())}
            onChange={(event) => setCustom(event.currentTarget.value)}
            required
          />
          {snooze.error && (
            <Text c="red" size="sm" role="alert" mt="xs">
              {t('inbox.snooze.failed', { message: snooze.error.message })}
            </Text>
          )}
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setCustom(undefined)}>
              {t('inbox.snooze.cancel')}
            </Button>
            <Button type="submit" loading={snooze.isPending}>
              {t('inbox.snooze.confirm')}
            </Button>
          </Group>
        </form>
      </Modal>
    </>
  );
}
