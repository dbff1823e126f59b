import {
  ActionIcon,
  Button,
  Card,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';

export type Rule = Schemas['RuleDto'];
export type RecordSearch = Schemas['FilterRecordDto'];
type Errors = Record<string, string>;

const FILTERS = ['txn', 'utr', 'status', 'mobile', 'date'] as const;

/** The rules: a keyword in the visitor's message runs a query over one table of the account. */
export function RulesEditor({
  rules,
  onChange,
  errors,
}: {
  rules: Rule[];
  onChange: (rules: Rule[]) => void;
  errors: Errors;
}) {
  const set = (index: number, patch: Partial<Rule>) =>
    onChange(rules.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  return (
    <Card withBorder padding="lg" component="fieldset" aria-labelledby="dl-rules" m={0}>
      <Title order={3} size="h4" id="dl-rules" mb={4}>
        {t('settings.lookup.rules')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('settings.lookup.rulesHint')}
      </Text>
      <Stack>
        {rules.map((rule, index) => {
          const at = `rules.${index}`;
          const name = rule.label || t('settings.lookup.newRule');
          const actions = rule.actions ?? [];
          return (
            <Paper key={index} withBorder p="md" component="section" aria-label={name}>
              <Group justify="space-between" mb="xs">
                <Text fw={600}>{name}</Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('settings.lookup.removeRule', { name })}
                  onClick={() => onChange(rules.filter((_, i) => i !== index))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput
                  label={t('settings.lookup.ruleId')}
                  value={rule.id}
                  onChange={(e) => set(index, { id: e.currentTarget.value })}
                  error={errors[`${at}.id`]}
                  required
                />
                <TextInput
                  label={t('settings.lookup.ruleLabel')}
                  value={rule.label}
                  onChange={(e) => set(index, { label: e.currentTarget.value })}
                  error={errors[`${at}.label`]}
                  required
                />
                <TagsInput
                  label={t('settings.lookup.keywords')}
                  value={rule.keywords}
                  onChange={(keywords) => set(index, { keywords })}
                  error={errors[`${at}.keywords`]}
                />
                <TextInput
                  label={t('settings.lookup.table')}
                  value={rule.table}
                  onChange={(e) => set(index, { table: e.currentTarget.value })}
                  error={errors[`${at}.table`]}
                  required
                />
                <TextInput
                  label={t('settings.lookup.accountColumn')}
                  value={rule.account_column}
                  onChange={(e) => set(index, { account_column: e.currentTarget.value })}
                  error={errors[`${at}.account_column`]}
                  required
                />
                <TagsInput
                  label={t('settings.lookup.columns')}
                  value={rule.columns}
                  onChange={(columns) => set(index, { columns })}
                  error={errors[`${at}.columns`]}
                />
                <TextInput
                  label={t('settings.lookup.orderBy')}
                  value={rule.order_by ?? ''}
                  onChange={(e) => set(index, { order_by: e.currentTarget.value || null })}
                  error={errors[`${at}.order_by`]}
                />
                <Select
                  label={t('settings.lookup.direction')}
                  data={[
                    { value: 'desc', label: t('settings.lookup.desc') },
                    { value: 'asc', label: t('settings.lookup.asc') },
                  ]}
                  value={rule.direction ?? 'desc'}
                  onChange={(value) => value && set(index, { direction: value })}
                  allowDeselect={false}
                />
                <NumberInput
                  label={t('settings.lookup.pageSize')}
                  min={1}
                  max={50}
                  value={rule.page_size ?? 5}
                  onChange={(value) => set(index, { page_size: Number(value) || 5 })}
                  error={errors[`${at}.page_size`]}
                />
              </SimpleGrid>
              <Text size="sm" fw={500} mt="md">
                {t('settings.lookup.actions')}
              </Text>
              <Stack gap="xs" mt={4}>
                {actions.map((action, a) => (
                  <Group key={a} align="flex-end" gap="xs">
                    <TextInput
                      label={t('settings.lookup.actionId')}
                      value={action.id}
                      onChange={(e) =>
                        set(index, {
                          actions: actions.map((x, i) =>
                            i === a ? { ...x, id: e.currentTarget.value } : x,
                          ),
                        })
                      }
                      error={errors[`${at}.actions.${a}.id`]}
                      w={120}
                    />
                    <TextInput
                      label={t('settings.lookup.actionLabel')}
                      value={action.label}
                      onChange={(e) =>
                        set(index, {
                          actions: actions.map((x, i) =>
                            i === a ? { ...x, label: e.currentTarget.value } : x,
                          ),
                        })
                      }
                      error={errors[`${at}.actions.${a}.label`]}
                      w={160}
                    />
                    <Textarea
                      label={t('settings.lookup.actionReply')}
                      value={action.reply}
                      autosize
                      minRows={1}
                      onChange={(e) =>
                        set(index, {
                          actions: actions.map((x, i) =>
                            i === a ? { ...x, reply: e.currentTarget.value } : x,
                          ),
                        })
                      }
                      error={errors[`${at}.actions.${a}.reply`]}
                      style={{ flex: 1 }}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mb={4}
                      aria-label={t('settings.lookup.removeAction', {
                        name: action.label || action.id,
                      })}
                      onClick={() => set(index, { actions: actions.filter((_, i) => i !== a) })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                <Group>
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() =>
                      set(index, { actions: [...actions, { id: '', label: '', reply: '' }] })
                    }
                  >
                    {t('settings.lookup.addAction')}
                  </Button>
                </Group>
              </Stack>
            </Paper>
          );
        })}
        <Group>
          <Button
            variant="default"
            onClick={() =>
              onChange([
                ...rules,
                {
                  id: '',
                  label: '',
                  keywords: [],
                  table: '',
                  account_column: '',
                  columns: [],
                  direction: 'desc',
                  page_size: 5,
                },
              ])
            }
          >
            {t('settings.lookup.addRule')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Record search: the visitor filters one table of their account by transaction, date... */
export function RecordSearchEditor({
  value,
  onChange,
  errors,
}: {
  value: RecordSearch | null;
  onChange: (value: RecordSearch | null) => void;
  errors: Errors;
}) {
  const at = 'filter_record';
  return (
    <Card withBorder padding="lg" component="fieldset" aria-labelledby="dl-record" m={0}>
      <Title order={3} size="h4" id="dl-record" mb={4}>
        {t('settings.lookup.recordSearch')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('settings.lookup.recordSearchHint')}
      </Text>
      <Switch
        label={t('settings.lookup.recordSearchOn')}
        checked={value !== null}
        onChange={(e) =>
          onChange(
            e.currentTarget.checked
              ? {
                  enabled: true,
                  table: '',
                  account_column: '',
                  filters: {},
                  columns: [],
                  limit: 20,
                }
              : null,
          )
        }
        mb="md"
      />
      {value && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('settings.lookup.buttonLabel')}
            value={value.button_label ?? ''}
            onChange={(e) =>
              onChange({ ...value, button_label: e.currentTarget.value || undefined })
            }
            error={errors[`${at}.button_label`]}
          />
          <TextInput
            label={t('settings.lookup.table')}
            value={value.table}
            onChange={(e) => onChange({ ...value, table: e.currentTarget.value })}
            error={errors[`${at}.table`]}
            required
          />
          <TextInput
            label={t('settings.lookup.accountColumn')}
            value={value.account_column}
            onChange={(e) => onChange({ ...value, account_column: e.currentTarget.value })}
            error={errors[`${at}.account_column`]}
            required
          />
          <TagsInput
            label={t('settings.lookup.columns')}
            value={value.columns}
            onChange={(columns) => onChange({ ...value, columns })}
            error={errors[`${at}.columns`]}
          />
          {FILTERS.map((filter) => (
            <TextInput
              key={filter}
              label={t(`settings.lookup.filter.${filter}`)}
              value={value.filters[filter] ?? ''}
              onChange={(e) =>
                onChange({
                  ...value,
                  filters: { ...value.filters, [filter]: e.currentTarget.value || undefined },
                })
              }
              error={errors[`${at}.filters.${filter}`]}
            />
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}
