import {
  Button,
  Fieldset,
  Group,
  MultiSelect,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { MacroAction } from '../../../api/queries';
import { useCannedResponses, useLabels, useTeamDirectory } from '../../../api/queries';
import { t, type MessageKey } from '../../../i18n';

export type ActionType = MacroAction['type'];

const TYPES: ActionType[] = ['reply', 'add_labels', 'assign', 'unassign', 'set_status', 'close'];

/** How long a "snooze" step keeps the conversation out of the open views, in minutes. */
const SNOOZE_MINUTES = [60, 240, 24 * 60, 7 * 24 * 60];

/**
 * The catalog's sentence for a field the server refused (its own texts name wire fields, as
 * "canned_response_id"): by the field alone, as each has one way to be wrong a person can fix.
 */
const FIELD_SENTENCES: Record<string, MessageKey> = {
  type: 'settings.macros.error.type',
  canned_response_id: 'settings.macros.error.canned',
  label_ids: 'settings.macros.error.labels',
  agent_id: 'settings.macros.error.agent',
  status: 'settings.macros.error.status',
  snooze_minutes: 'settings.macros.error.status',
};

/** The value of "assign to whoever runs the macro" in the member select. */
const RUNNER = 'runner';

export interface MacroDraft {
  name: string;
  actions: MacroAction[];
}

export const emptyDraft = (): MacroDraft => ({ name: '', actions: [{ type: 'reply' }] });

/** A fresh step of a type, with the values that type needs set to their first choice. */
function actionOf(type: ActionType): MacroAction {
  switch (type) {
    case 'assign':
      return { type, agent_id: null };
    case 'set_status':
      return { type, status: 'open' };
    case 'add_labels':
      return { type, label_ids: [] };
    case 'reply':
    case 'unassign':
    case 'close':
      return { type };
  }
}

/**
 * The fields of a macro: its name and its steps, in the order they run. Each step says what it
 * does and, by its type, which reply, labels, member or status.
 */
export function MacroFields({
  draft,
  onChange,
  errors,
}: {
  draft: MacroDraft;
  onChange: (draft: MacroDraft) => void;
  errors: Record<string, string>;
}) {
  const canned = useCannedResponses().data ?? [];
  const labels = useLabels().data ?? [];
  const team = useTeamDirectory().data ?? [];
  const setAction = (index: number, action: MacroAction) =>
    onChange({ ...draft, actions: draft.actions.map((a, i) => (i === index ? action : a)) });
  const removeAction = (index: number) =>
    onChange({ ...draft, actions: draft.actions.filter((_, i) => i !== index) });

  return (
    <Stack>
      <TextInput
        label={t('settings.macros.name')}
        value={draft.name}
        onChange={(e) => onChange({ ...draft, name: e.currentTarget.value })}
        error={
          errors.name &&
          t(draft.name.trim() ? 'settings.macros.error.nameTaken' : 'settings.macros.error.name')
        }
        required
        maxLength={100}
        maw={420}
      />
      {errors.actions && (
        <Text c="red" size="sm" role="alert">
          {t('settings.macros.error.actions')}
        </Text>
      )}
      {draft.actions.map((action, index) => {
        const step = index + 1;
        const error = (field: string) =>
          errors[`actions.${index}.${field}`] ? t(FIELD_SENTENCES[field]) : undefined;
        return (
          <Fieldset key={index} legend={t('settings.macros.step', { step })}>
            <Group align="flex-start" wrap="wrap">
              <Select
                label={t('settings.macros.type', { step })}
                data={TYPES.map((type) => ({
                  value: type,
                  label: t(`settings.macros.type.${type}` as MessageKey),
                }))}
                value={action.type}
                onChange={(value) => value && setAction(index, actionOf(value))}
                allowDeselect={false}
                error={error('type')}
                w={260}
              />
              {action.type === 'reply' && (
                <Select
                  label={t('settings.macros.canned', { step })}
                  placeholder={t('settings.macros.cannedPick')}
                  data={canned.map((item) => ({
                    value: String(item.id),
                    label: `/${item.shortcut}`,
                  }))}
                  value={action.canned_response_id ? String(action.canned_response_id) : null}
                  onChange={(value) =>
                    setAction(index, {
                      type: 'reply',
                      canned_response_id: value ? Number(value) : undefined,
                    })
                  }
                  nothingFoundMessage={t('settings.macros.cannedNone')}
                  error={error('canned_response_id')}
                  searchable
                  w={240}
                />
              )}
              {action.type === 'add_labels' && (
                <MultiSelect
                  label={t('settings.macros.labels', { step })}
                  data={labels.map((label) => ({ value: String(label.id), label: label.name }))}
                  value={(action.label_ids ?? []).map(String)}
                  onChange={(values) =>
                    setAction(index, { type: 'add_labels', label_ids: values.map(Number) })
                  }
                  nothingFoundMessage={t('settings.macros.labelsNone')}
                  error={error('label_ids')}
                  searchable
                  miw={240}
                />
              )}
              {action.type === 'assign' && (
                <Select
                  label={t('settings.macros.assignee', { step })}
                  data={[
                    { value: RUNNER, label: t('settings.macros.runner') },
                    ...team.map((member) => ({ value: String(member.id), label: member.name })),
                  ]}
                  value={action.agent_id ? String(action.agent_id) : RUNNER}
                  onChange={(value) =>
                    setAction(index, {
                      type: 'assign',
                      agent_id: !value || value === RUNNER ? null : Number(value),
                    })
                  }
                  allowDeselect={false}
                  error={error('agent_id')}
                  w={240}
                />
              )}
              {action.type === 'set_status' && (
                <Select
                  label={t('settings.macros.status', { step })}
                  data={[
                    { value: 'open', label: t('settings.macros.status.open') },
                    ...SNOOZE_MINUTES.map((minutes) => ({
                      value: String(minutes),
                      label: t(`settings.macros.status.snooze.${minutes}` as MessageKey),
                    })),
                  ]}
                  value={action.status === 'snoozed' ? String(action.snooze_minutes) : 'open'}
                  onChange={(value) =>
                    setAction(
                      index,
                      !value || value === 'open'
                        ? { type: 'set_status', status: 'open' }
                        : { type: 'set_status', status: 'snoozed', snooze_minutes: Number(value) },
                    )
                  }
                  allowDeselect={false}
                  error={error('status') ?? error('snooze_minutes')}
                  w={240}
                />
              )}
              <Button
                variant="subtle"
                color="red"
                size="xs"
                mt={28}
                onClick={() => removeAction(index)}
                disabled={draft.actions.length === 1}
              >
                {t('settings.macros.removeStep', { step })}
              </Button>
            </Group>
          </Fieldset>
        );
      })}
      <Group>
        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => onChange({ ...draft, actions: [...draft.actions, { type: 'close' }] })}
          disabled={draft.actions.length >= 20}
        >
          {t('settings.macros.addStep')}
        </Button>
      </Group>
    </Stack>
  );
}

/** A one-line summary of a macro's steps, for the list. */
export function describeActions(actions: MacroAction[]): string {
  return actions
    .map((action) => t(`settings.macros.type.${action.type}` as MessageKey))
    .join(' → ');
}
