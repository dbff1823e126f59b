import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '../../../i18n';
import { SectionHeader } from './ui';

/** What an agent sees at the address of a section only owners and admins manage. */
export function OwnersOnly({ organization }: { organization: string }) {
  return (
    <Stack gap="xs">
      <SectionHeader title={t('settings.ownersOnly.title')} />
      <Text>{t('settings.ownersOnly.body', { organization })}</Text>
      <Anchor component={Link} to="/inbox">
        {t('settings.ownersOnly.inbox')}
      </Anchor>
    </Stack>
  );
}
