import { Button, Menu, Text } from '@mantine/core';
import { IconBolt, IconChevronDown } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../api/client';
import { type Macro, useMacros } from '../../api/queries';
import { keys } from '../../api/keys';
import { t } from '../../i18n';

/** Runs a macro on the conversation: all its actions in one step, as the agent. */
export function useRunMacro(conversationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (macro: Macro) =>
      unwrap(
        api.POST('/api/agent/macros/{macro}/run', {
          params: { path: { macro: macro.id } },
          body: { conversation_id: conversationId },
        }),
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keys.conversations.one(conversationId) });
      void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
    },
  });
}

type RunMacro = ReturnType<typeof useRunMacro>;

/** The macros of the organization, by name, in a menu; choosing one runs it. */
export function MacroMenu({ run }: { run: RunMacro }) {
  const macros = useMacros();
  return (
    <Menu position="bottom-end" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          variant="default"
          size="sm"
          leftSection={<IconBolt size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={run.isPending}
        >
          {t('inbox.macro.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {macros.data?.length ? (
          macros.data.map((macro) => (
            <Menu.Item key={macro.id} onClick={() => run.mutate(macro)}>
              {macro.name}
            </Menu.Item>
          ))
        ) : (
          <Menu.Item disabled>
            {macros.isPending ? t('app.loading') : t('inbox.macro.none')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** What the last run did: that it ran, or why nothing was changed. */
export function MacroOutcome({ run }: { run: RunMacro }) {
  if (run.isSuccess && run.variables) {
    return (
      <Text size="sm" c="dimmed" px="md" pt="xs" role="status">
        {t('inbox.macro.ran', { name: run.variables.name })}
      </Text>
    );
  }
  if (!run.error || !run.variables) return null;
  const status = run.error instanceof ApiError ? run.error.status : 0;
  const key =
    status === 409
      ? 'inbox.macro.conflict'
      : status === 404
        ? 'inbox.macro.gone'
        : 'inbox.macro.failed';
  return (
    <Text c="red" size="sm" px="md" pt="xs" role="alert">
      {t(key, { name: run.variables.name })}
    </Text>
  );
}
