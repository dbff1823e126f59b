import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { type ConversationDetail, useLabels } from '../../api/queries';
import { keys } from '../../api/keys';

/** What an agent does to a conversation from its header: assign, close, reopen, label. */
export function useConversationActions(id: number) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: keys.conversations.one(id) });
    void queryClient.invalidateQueries({ queryKey: keys.conversations.all });
  };
  /** Gives the conversation to a member, or (null) to nobody. */
  const assign = useMutation({
    mutationFn: (agentId: number | null) => {
      const path = { params: { path: { conversation: id } } };
      return unwrap(
        agentId === null
          ? api.POST('/api/agent/conversations/{conversation}/unassign', path)
          : api.POST('/api/agent/conversations/{conversation}/assign', {
              ...path,
              body: { agent_id: agentId },
            }),
      );
    },
    onSettled: refresh,
  });
  const close = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/close', {
          params: { path: { conversation: id } },
        }),
      ),
    onSettled: refresh,
  });
  const reopen = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/agent/conversations/{conversation}/reopen', {
          params: { path: { conversation: id } },
        }),
      ),
    onSettled: refresh,
  });
  const labels = useLabels().data ?? [];
  const setLabels = useMutation({
    mutationFn: (labelIds: number[]) =>
      unwrap(
        api.PUT('/api/agent/conversations/{conversation}/labels', {
          params: { path: { conversation: id } },
          body: { label_ids: labelIds },
        }),
      ),
    onMutate: (labelIds) =>
      queryClient.setQueryData<ConversationDetail>(keys.conversations.one(id), (old) =>
        old ? { ...old, labels: labels.filter((label) => labelIds.includes(label.id)) } : old,
      ),
    onSettled: refresh,
  });
  return { assign, close, reopen, labels, setLabels };
}
