import { Title } from '@mantine/core';
import { t } from '../../i18n';

export default function SettingsPage() {
  return <Title order={1}>{t('settings.title')}</Title>;
}
