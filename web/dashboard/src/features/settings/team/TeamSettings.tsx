import { Select, SimpleGrid, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { useTeam, useMe } from '../../../api/queries';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { ListTable } from '../kit/ListTable';
import {
  ConfirmButton,
  fieldErrorsOf,
  formatDateTime,
  NoticeBar,
  type Role,
  SectionHeader,
  useNotice,
  Tag,
} from '../kit/ui';
import { keys } from '../../../api/keys';
import { useInvitations } from './queries';

const ROLES: Role[] = ['owner', 'admin', 'agent'];
const roleOptions = ROLES.map((role) => ({ value: role, label: t(`settings.role.${role}`) }));

export default function TeamSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const me = useMe();
  const team = useTeam();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.team.all });

  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) =>
      unwrap(
        api.PATCH('/api/agent/team/{user}', {
          params: { path: { user: String(id) } },
          body: { role },
        }),
      ),
    onSuccess: (result) => {
      notice.success(t('settings.team.roleChanged', { name: result.data.name }));
      void refresh();
    },
    onError: notice.failure,
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/team/{user}', { params: { path: { user: String(id) } } })),
    onSuccess: () => {
      notice.success(t('settings.team.removed'));
      void refresh();
    },
    onError: notice.failure,
  });

  return (
    <>
      <SectionHeader
        title={t('settings.team.title')}
        description={t('settings.team.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <InviteForm
        onInvited={(email) => {
          notice.success(t('settings.team.invited', { email }));
          void queryClient.invalidateQueries({ queryKey: keys.team.invitations });
        }}
      />
      <PendingInvitations onRevoked={() => notice.success(t('settings.team.revoked'))} />
      <ListTable
        items={team.data}
        loading={team.isPending}
        error={team.error}
        rowKey={(member) => member.id}
        minWidth={640}
        highlightOnHover
        columns={[
          {
            key: 'name',
            header: t('settings.team.name'),
            cell: (member) => <Text fw={500}>{member.name}</Text>,
          },
          { key: 'email', header: t('settings.team.email'), cell: (member) => member.email },
          {
            key: 'role',
            header: t('settings.team.role'),
            cell: (member) => (
              <Select
                aria-label={t('settings.team.roleOf', { name: member.name })}
                data={roleOptions}
                value={member.role}
                allowDeselect={false}
                disabled={member.id === me.data?.user.id}
                onChange={(value) => value && changeRole.mutate({ id: member.id, role: value })}
                w={140}
              />
            ),
          },
          {
            key: 'status',
            header: t('settings.team.status'),
            cell: (member) => (
              <Tag
                color={
                  member.status === 'online' ? 'teal' : member.status === 'away' ? 'yellow' : 'gray'
                }
              >
                {t(`settings.team.presence.${member.status}`)}
              </Tag>
            ),
          },
          {
            key: 'actions',
            header: <VisuallyHidden>{t('settings.actions')}</VisuallyHidden>,
            cell: (member) =>
              member.id !== me.data?.user.id && (
                <ConfirmButton
                  label={t('settings.team.remove', { name: member.name })}
                  title={t('settings.team.removeTitle')}
                  message={t('settings.team.removeMessage', { name: member.name })}
                  confirmLabel={t('settings.team.removeConfirm')}
                  onConfirm={() => remove.mutate(member.id)}
                />
              ),
          },
        ]}
      />
    </>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/team/invitations', {
          body: { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      ),
    onSuccess: (result) => {
      setName('');
      setEmail('');
      setRole('agent');
      onInvited(result.data.email);
    },
  });
  const errors = fieldErrorsOf(invite.error);
  return (
    <FormCard
      id="invite-member"
      title={t('settings.team.invite')}
      submitLabel={t('settings.team.inviteButton')}
      submitting={invite.isPending}
      error={invite.error}
      onSubmit={() => invite.mutate()}
    >
      <Text size="sm" c="dimmed">
        {t('settings.team.inviteHelp')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('settings.team.email')}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          // The API's reason says which: already in the team, or not an address.
          error={errors.email}
          required
        />
        <TextInput
          label={t('settings.team.nameOptional')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
        />
        <Select
          label={t('settings.team.role')}
          data={roleOptions}
          value={role}
          allowDeselect={false}
          onChange={(value) => value && setRole(value)}
          error={errors.role}
        />
      </SimpleGrid>
    </FormCard>
  );
}

function PendingInvitations({ onRevoked }: { onRevoked: () => void }) {
  const queryClient = useQueryClient();
  const invitations = useInvitations();
  const revoke = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.DELETE('/api/agent/team/invitations/{invitation}', {
          params: { path: { invitation: String(id) } },
        }),
      ),
    onSuccess: () => {
      onRevoked();
      void queryClient.invalidateQueries({ queryKey: keys.team.invitations });
    },
  });
  return (
    <section aria-labelledby="pending-invitations">
      <Title order={3} size="h4" id="pending-invitations" mt="lg" mb="sm">
        {t('settings.team.pending')}
      </Title>
      <ListTable
        items={invitations.data}
        loading={invitations.isPending}
        error={invitations.error}
        empty={t('settings.team.pendingEmpty')}
        rowKey={(invitation) => invitation.id}
        minWidth={640}
        columns={[
          { key: 'email', header: t('settings.team.email'), cell: (i) => i.email },
          {
            key: 'role',
            header: t('settings.team.role'),
            cell: (i) => t(`settings.role.${i.role}`),
          },
          {
            key: 'by',
            header: t('settings.team.invitedBy'),
            cell: (i) => i.invited_by ?? '—',
          },
          {
            key: 'expires',
            header: t('settings.team.expires'),
            cell: (i) => formatDateTime(i.expires_at),
          },
          {
            key: 'actions',
            header: <VisuallyHidden>{t('settings.actions')}</VisuallyHidden>,
            cell: (i) => (
              <ConfirmButton
                label={t('settings.team.revoke', { email: i.email })}
                title={t('settings.team.revokeTitle')}
                message={t('settings.team.revokeMessage', { email: i.email })}
                confirmLabel={t('settings.team.revokeConfirm')}
                onConfirm={() => revoke.mutate(i.id)}
              />
            ),
          },
        ]}
      />
    </section>
  );
}
