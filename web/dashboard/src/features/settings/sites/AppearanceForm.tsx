import {
  Alert,
  ColorInput,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import {
  AA_RATIO,
  contrastRatio,
  DARK_TEXT,
  formatRatio,
  parseHex,
  textColorOn,
} from '../../../../../shared/contrast';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import type { Schemas } from '../../../../../shared/api/client';

export type Appearance = Schemas['StoredAppearanceDto'];

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
      <ContrastNote color={form.color} />
      <Group justify={form.position === 'left' ? 'flex-start' : 'flex-end'} aria-hidden>
        <Text
          size="sm"
          fw={600}
          px="md"
          py={8}
          style={{ background: form.color, color: textColorOn(form.color), borderRadius: 999 }}
        >
          {form.launcher_label}
        </Text>
      </Group>
    </FormCard>
  );
}

/**
 * What the chosen colour means for reading (WCAG AA, 4.5:1): the text the widget puts on it
 * (light or dark, whichever contrasts more) and its ratio, and a warning when that text, or the
 * colour itself on the widget's white (chips, borders, focus rings), falls below AA.
 */
function ContrastNote({ color }: { color: string }) {
  const valid = parseHex(color) !== undefined;
  const text = valid ? textColorOn(color) : undefined;
  const onColor = text ? contrastRatio(color, text) : 0;
  const onWhite = valid ? contrastRatio(color, '#ffffff') : 0;
  const values = (ratio: number) => ({ ratio: formatRatio(ratio), aa: formatRatio(AA_RATIO) });
  return (
    <div role="status" aria-live="polite">
      {valid && (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t(
              text === DARK_TEXT ? 'settings.appearance.textDark' : 'settings.appearance.textLight',
              {
                ratio: formatRatio(onColor),
              },
            )}
          </Text>
          {onColor < AA_RATIO && (
            <Alert color="yellow" role="none" title={t('settings.appearance.lowContrast')}>
              {t('settings.appearance.lowText', values(onColor))}
            </Alert>
          )}
          {onWhite < AA_RATIO && (
            <Alert color="yellow" role="none" title={t('settings.appearance.lowContrast')}>
              {t('settings.appearance.lowOnWhite', values(onWhite))}
            </Alert>
          )}
        </Stack>
      )}
    </div>
  );
}
