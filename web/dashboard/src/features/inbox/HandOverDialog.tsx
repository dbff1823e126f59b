import { Button, Group, Modal, NativeSelect, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { type Agent, type Member } from '../../api/queries';
import { keys } from '../../api/keys';
import { t } from '../../i18n';

/** Hand-over: assign to a member and leave them a private note, in one step (one transaction). */
export function HandOverDialog({
  conversationId,
  me,
  team,
  opened,
  onClose,
}: {
  conversationId: number;
  me: Agent;
  team: Member[];
  opened: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const others = team.filter((member) => member.id !== me.id);
  const [agentId, setAgentId] = useState('');
  const [note, setNote] = useState('');
  const handOver = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/assign', {
          params: { path: { conversation: conversationId } },
          body: { agent_id: Number(agentId), note: note.trim() },
        }),
      ),
    onSuccess: () => {
      setNote('');
      setAgentId('');
      onClose();
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: keys.conversations.one(conversationId) });
      void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (agentId && note.trim()) handOver.mutate();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('inbox.handOver.title')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form onSubmit={submit}>
        <NativeSelect
          label={t('inbox.handOver.to')}
          value={agentId}
          onChange={(event) => setAgentId(event.currentTarget.value)}
          required
          data={[
            { value: '', label: t('inbox.handOver.choose'), disabled: true },
            ...others.map((member) => ({ value: String(member.id), label: member.name })),
          ]}
        />
        <Textarea
          mt="sm"
          label={t('inbox.handOver.note')}
          description={t('inbox.handOver.noteHint')}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          autosize
          minRows={3}
          maxLength={5000}
          required
        />
        {handOver.error && (
          <Text c="red" size="sm" role="alert" mt="xs">
            {t('inbox.handOver.failed', { message: handOver.error.message })}
          </Text>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('inbox.snooze.cancel')}
          </Button>
          <Button type="submit" loading={handOver.isPending} disabled={!agentId || !note.trim()}>
            {t('inbox.handOver.submit')}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
