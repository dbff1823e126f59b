import { Title } from '@mantine/core';
import { t } from '../../i18n';

export default function TicketsPage() {
  return <Title order={1}>{t('tickets.title')}</Title>;
}
