import { PasswordInput, Select, SimpleGrid, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useTeam } from '../../api/queries';
import { t } from '../../i18n';
import { FormCard } from './FormCard';
import { ListTable } from './ListTable';
import {
  ConfirmButton,
  fieldErrorsOf,
  NoticeBar,
  type Role,
  SectionHeader,
  useMe,
  useNotice,
  Tag,
} from './ui';

const ROLES: Role[] = ['owner', 'admin', 'agent'];
const roleOptions = ROLES.map((role) => ({ value: role, label: t(`settings.role.${role}`) }));

export default function TeamSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const me = useMe();
  const team = useTeam();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['team'] });

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
      <AddMemberForm
        onAdded={(name) => {
          notice.success(t('settings.team.added', { name }));
          void refresh();
        }}
      />
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

function AddMemberForm({ onAdded }: { onAdded: (name: string) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const [password, setPassword] = useState('');
  const add = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/agent/team', { body: { name, email, role, password } })),
    onSuccess: (result) => {
      setName('');
      setEmail('');
      setPassword('');
      setRole('agent');
      onAdded(result.data.name);
    },
  });
  const errors = fieldErrorsOf(add.error);
  return (
    <FormCard
      id="add-member"
      title={t('settings.team.add')}
      submitLabel={t('settings.team.addButton')}
      submitting={add.isPending}
      error={add.error}
      onSubmit={() => add.mutate()}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('settings.team.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          required
        />
        <TextInput
          label={t('settings.team.email')}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={errors.email}
          required
        />
        <Select
          label={t('settings.team.role')}
          data={roleOptions}
          value={role}
          allowDeselect={false}
          onChange={(value) => value && setRole(value)}
          error={errors.role}
        />
        <PasswordInput
          label={t('settings.team.password')}
          description={t('settings.team.passwordHint')}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
          required
        />
      </SimpleGrid>
    </FormCard>
  );
}
