import { Title } from '@mantine/core';
import { t } from '../../i18n';

export default function ReportsPage() {
  return <Title order={1}>{t('reports.title')}</Title>;
}
