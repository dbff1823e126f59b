import { Button, Group, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { keys } from '../../api/keys';
import { t } from '../../i18n';
import { ConfirmButton } from '../settings/kit/ui';

/**
 * The visitor's privacy actions (owners and admins): download everything held about them as
 * JSON, and erase them (confirmed first; their live chat ends).
 */
export function VisitorPrivacy({
  visitorId,
  onErased,
}: {
  visitorId: number;
  onErased: () => void;
}) {
  const me = useMe();
  const queryClient = useQueryClient();
  const erase = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/agent/visitors/{visitor}', { params: { path: { visitor: visitorId } } }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.visitorPanel.one(visitorId) });
      void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
      onErased();
    },
  });
  const role = me.data?.user.role;
  if (role !== 'owner' && role !== 'admin') return null;
  return (
    <>
      <Group gap="xs">
        <Button
          component="a"
          href={`/api/agent/visitors/${visitorId}/export`}
          download={`visitor-${visitorId}.json`}
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} aria-hidden />}
        >
          {t('inbox.privacy.export')}
        </Button>
        <ConfirmButton
          label={t('inbox.privacy.erase')}
          title={t('inbox.privacy.eraseTitle')}
          message={t('inbox.privacy.eraseMessage')}
          confirmLabel={t('inbox.privacy.eraseConfirm')}
          onConfirm={() => erase.mutate()}
          loading={erase.isPending}
        />
      </Group>
      {erase.isSuccess && (
        <Text size="sm" role="status">
          {t('inbox.privacy.erased')}
        </Text>
      )}
      {erase.isError && (
        <Text size="sm" c="red.8" role="alert">
          {t('inbox.privacy.failed')}
        </Text>
      )}
    </>
  );
}
