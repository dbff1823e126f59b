import { Title } from '@mantine/core';
import { t } from '../../i18n';

export default function InboxPage() {
  return <Title order={1}>{t('inbox.title')}</Title>;
}
