import { ColorInput, Group, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { t } from '../../i18n';
import { FormCard } from './FormCard';

export interface Appearance {
  color: string;
  position: 'right' | 'left';
  greeting: string;
  launcher_label: string;
}

/** The widget's look: its colour, the side it sits on, the greeting and the launcher's label. */
export function AppearanceForm({
  value,
  errors,
  saving,
  onSave,
}: {
  value: Appearance;
  errors: Record<string, string>;
  saving: boolean;
  onSave: (value: Appearance) => void;
}) {
  const [form, setForm] = useState(value);
  const at = 'widget_settings.appearance';
  return (
    <FormCard
      id="site-appearance"
      title={t('settings.appearance.title')}
      submitLabel={t('settings.appearance.save')}
      submitting={saving}
      onSubmit={() => onSave(form)}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ColorInput
          label={t('settings.appearance.color')}
          value={form.color}
          onChange={(color) => setForm({ ...form, color })}
          format="hex"
          withEyeDropper={false}
          error={errors[`${at}.color`]}
        />
        <Select
          label={t('settings.appearance.position')}
          data={[
            { value: 'right', label: t('settings.appearance.right') },
            { value: 'left', label: t('settings.appearance.left') },
          ]}
          value={form.position}
          onChange={(position) => position && setForm({ ...form, position: position })}
          allowDeselect={false}
          error={errors[`${at}.position`]}
        />
        <TextInput
          label={t('settings.appearance.greeting')}
          value={form.greeting}
          onChange={(e) => setForm({ ...form, greeting: e.currentTarget.value })}
          error={errors[`${at}.greeting`]}
        />
        <TextInput
          label={t('settings.appearance.launcher')}
          value={form.launcher_label}
          onChange={(e) => setForm({ ...form, launcher_label: e.currentTarget.value })}
          error={errors[`${at}.launcher_label`]}
        />
      </SimpleGrid>
      <Group justify={form.position === 'left' ? 'flex-start' : 'flex-end'} aria-hidden>
        <Text
          size="sm"
          fw={600}
          px="md"
          py={8}
          style={{ background: form.color, color: '#fff', borderRadius: 999 }}
        >
          {form.launcher_label}
        </Text>
      </Group>
    </FormCard>
  );
}
