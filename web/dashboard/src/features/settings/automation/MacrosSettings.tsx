import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { useMacros } from '../../../api/queries';
import { keys } from '../../../api/keys';
import { t } from '../../../i18n';
import { FormCard } from '../kit/FormCard';
import { ListTable } from '../kit/ListTable';
import { describeActions, emptyDraft, MacroFields, type MacroDraft } from './MacroEditor';
import {
  ConfirmButton,
  EditButton,
  fieldErrorsOf,
  NoticeBar,
  SectionHeader,
  useNotice,
} from '../kit/ui';

/**
 * Macros: named sequences of steps (reply from a canned response, add labels, assign, set the
 * status, close) every member runs on a conversation in one go; owners and admins keep them.
 */
export default function MacrosSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const [draft, setDraft] = useState<MacroDraft>(emptyDraft);
  const [editing, setEditing] = useState<MacroDraft>(emptyDraft);
  const list = useMacros();
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.macros.all });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/agent/macros', { body: draft })),
    onSuccess: () => {
      notice.success(t('settings.macros.added', { name: draft.name.trim() }));
      setDraft(emptyDraft());
      void refresh();
    },
  });
  const update = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.PATCH('/api/agent/macros/{macro}', { params: { path: { macro: id } }, body: editing }),
      ),
    onSuccess: () => {
      notice.success(t('settings.macros.updated', { name: editing.name.trim() }));
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.DELETE('/api/agent/macros/{macro}', { params: { path: { macro: id } } })),
    onSuccess: () => {
      notice.success(t('settings.macros.removed'));
      void refresh();
    },
    onError: notice.failure,
  });
  return (
    <>
      <SectionHeader
        title={t('settings.macros.title')}
        description={t('settings.macros.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <FormCard
        id="new-macro"
        title={t('settings.macros.add')}
        submitLabel={t('settings.macros.addButton')}
        submitting={create.isPending}
        error={create.error}
        onSubmit={() => create.mutate()}
      >
        <MacroFields draft={draft} onChange={setDraft} errors={fieldErrorsOf(create.error)} />
      </FormCard>
      <ListTable
        items={list.data}
        loading={list.isPending}
        error={list.error}
        empty={t('settings.macros.empty')}
        rowKey={(item) => item.id}
        minWidth={480}
        columns={[
          {
            key: 'name',
            header: t('settings.macros.name'),
            props: { fw: 600 },
            cell: (item) => item.name,
          },
          {
            key: 'steps',
            header: t('settings.macros.steps'),
            cell: (item) => describeActions(item.actions),
          },
          {
            key: 'actions',
            header: t('settings.actions'),
            cell: (item) => (
              <>
                <EditButton
                  label={t('settings.macros.edit', { name: item.name })}
                  title={t('settings.macros.editTitle')}
                  onOpen={() => {
                    update.reset();
                    setEditing({ name: item.name, actions: item.actions });
                  }}
                  onSave={() => update.mutateAsync(item.id)}
                  saving={update.isPending}
                  error={update.error}
                >
                  <MacroFields
                    draft={editing}
                    onChange={setEditing}
                    errors={fieldErrorsOf(update.error)}
                  />
                </EditButton>
                <ConfirmButton
                  label={t('settings.macros.remove', { name: item.name })}
                  title={t('settings.macros.removeTitle')}
                  message={t('settings.macros.removeMessage', { name: item.name })}
                  confirmLabel={t('settings.macros.removeConfirm')}
                  onConfirm={() => remove.mutate(item.id)}
                />
              </>
            ),
          },
        ]}
      />
    </>
  );
}
