import { Title } from '@mantine/core';
import { t } from '../../i18n';

export default function LoginPage() {
  return <Title order={1}>{t('auth.title')}</Title>;
}
