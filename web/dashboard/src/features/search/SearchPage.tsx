import { Title } from '@mantine/core';
import { t } from '../../i18n';

export default function SearchPage() {
  return <Title order={1}>{t('search.title')}</Title>;
}
