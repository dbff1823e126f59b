import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { t } from '../../../i18n';
import { Tag } from '../kit/ui';
import type { Schemas } from '../../../../../shared/api/client';

export type PreChatField = Schemas['StoredPreChatFieldDto'];
export type PreChatForm = Schemas['StoredPreChatFormDto'];

const BUILTIN: PreChatField[] = [
  { key: 'name', type: 'text', label: 'Name', required: true },
  { key: 'email', type: 'email', label: 'Email', required: true },
  { key: 'phone', type: 'tel', label: 'Phone', required: false },
];
const TYPES = ['text', 'email', 'tel', 'textarea', 'number', 'select', 'checkbox', 'date'] as const;
const typeOptions = TYPES.map((type) => ({
  value: type,
  label: t(`settings.prechat.type.${type}`),
}));

/** The pre-chat form: built-in fields (name, email, phone) and the site's own custom fields. */
export function PreChatEditor({
  form: initial,
  errors,
  saving,
  onSave,
}: {
  form: PreChatForm;
  errors: Record<string, string>;
  saving: boolean;
  onSave: (form: PreChatForm) => void;
}) {
  const [form, setForm] = useState<PreChatForm>(initial);
  const prefix = 'widget_settings.pre_chat_form';
  const setField = (index: number, patch: Partial<PreChatField>) =>
    setForm({
      ...form,
      fields: form.fields.map((field, i) => (i === index ? { ...field, ...patch } : field)),
    });
  const move = (index: number, by: number) => {
    const fields = [...form.fields];
    const [field] = fields.splice(index, 1);
    fields.splice(index + by, 0, field);
    setForm({ ...form, fields });
  };
  const missingBuiltins = BUILTIN.filter((b) => !form.fields.some((f) => f.key === b.key));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave({
      ...form,
      fields: form.fields.map(({ key, type, label, required }) => ({ key, type, label, required })),
    });
  };
  return (
    <Card withBorder padding="lg" component="form" onSubmit={submit} aria-labelledby="prechat">
      <Title order={3} size="h4" id="prechat" mb={4}>
        {t('settings.prechat.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('settings.prechat.description')}
      </Text>
      <Stack>
        {errors[`${prefix}.fields`] && (
          <Text c="red" size="sm" role="alert">
            {errors[`${prefix}.fields`]}
          </Text>
        )}
        <Group align="flex-end">
          <Switch
            label={t('settings.prechat.enabled')}
            checked={form.enabled}
            onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })}
          />
          <NumberInput
            label={t('settings.prechat.delay')}
            min={0}
            value={form.delay_minutes}
            onChange={(value) => setForm({ ...form, delay_minutes: Number(value) || 0 })}
            error={errors[`${prefix}.delay_minutes`]}
            w={200}
          />
        </Group>
        {form.fields.map((field, index) => {
          const at = `${prefix}.fields.${index}`;
          const builtin = field.builtin === true;
          const name = field.label || field.key || t('settings.prechat.newField');
          return (
            <Paper
              key={index}
              withBorder
              p="sm"
              component="fieldset"
              aria-label={t('settings.prechat.fieldNamed', { name })}
              style={{ margin: 0 }}
            >
              <Group align="flex-end" wrap="wrap" gap="sm">
                <Tag color={builtin ? 'indigo' : 'grape'} mb={8}>
                  {builtin ? t('settings.prechat.builtin') : t('settings.prechat.custom')}
                </Tag>
                <TextInput
                  label={t('settings.prechat.label')}
                  value={field.label}
                  onChange={(e) => setField(index, { label: e.currentTarget.value })}
                  error={errors[`${at}.label`]}
                  required
                  w={200}
                />
                <TextInput
                  label={t('settings.prechat.key')}
                  value={field.key}
                  readOnly={builtin}
                  onChange={(e) => setField(index, { key: e.currentTarget.value })}
                  error={errors[`${at}.key`]}
                  required
                  w={160}
                />
                <Select
                  label={t('settings.prechat.type')}
                  data={typeOptions}
                  value={field.type}
                  onChange={(value) => value && setField(index, { type: value })}
                  allowDeselect={false}
                  error={errors[`${at}.type`]}
                  w={150}
                />
                <Checkbox
                  label={t('settings.prechat.required')}
                  checked={field.required}
                  onChange={(e) => setField(index, { required: e.currentTarget.checked })}
                  mb={8}
                />
                <Group gap={4} ml="auto" mb={4}>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('settings.prechat.moveUp', { name })}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('settings.prechat.moveDown', { name })}
                    disabled={index === form.fields.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('settings.prechat.removeField', { name })}
                    onClick={() =>
                      setForm({ ...form, fields: form.fields.filter((_, i) => i !== index) })
                    }
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          );
        })}
        <Group justify="space-between">
          <Group gap="xs">
            {missingBuiltins.map((field) => (
              <Button
                key={field.key}
                variant="default"
                size="xs"
                onClick={() =>
                  setForm({ ...form, fields: [...form.fields, { ...field, builtin: true }] })
                }
              >
                {t('settings.prechat.addBuiltin', { label: field.label })}
              </Button>
            ))}
            <Button
              variant="default"
              size="xs"
              onClick={() =>
                setForm({
                  ...form,
                  fields: [
                    ...form.fields,
                    { key: '', type: 'text', label: '', required: false, builtin: false },
                  ],
                })
              }
            >
              {t('settings.prechat.addCustom')}
            </Button>
          </Group>
          <Button type="submit" loading={saving}>
            {t('settings.prechat.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
