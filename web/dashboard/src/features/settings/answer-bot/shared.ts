import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import type { Schemas } from '../../../../../shared/api/client';
import { t } from '../../../i18n';
import type { useNotice } from '../kit/ui';
import { keys } from '../../../api/keys';

export type Notice = ReturnType<typeof useNotice>;
export type BotSettings = Schemas['AnswerBotSettingsViewDto'];
type SettingsBody = Schemas['AnswerBotSettingsDto'];

/** The site's answer-bot settings, shared by the settings and the generated-answers sections. */
export function useBotSettings(siteId: number) {
  return useQuery({
    queryKey: keys.answerBot.settings(siteId),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/sites/{site}/answer-bot', {
          params: { path: { site: siteId } },
        }),
      ),
  });
}

/**
 * Saves one section's fields: the PUT takes every setting, so the other section's come from the
 * settings as last read (not from its unsaved form).
 */
export function useSaveBotSettings(siteId: number, notice: Notice) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<SettingsBody>) => {
      const current = queryClient.getQueryData<{ data: BotSettings }>(
        keys.answerBot.settings(siteId),
      )?.data;
      const body: SettingsBody = {
        enabled: current?.enabled ?? false,
        min_score: current?.min_score ?? 0.3,
        handoff_message: current?.handoff_message ?? null,
        max_answers: current?.max_answers ?? 3,
        generative: current?.generative ?? false,
        guidance: current?.guidance ?? null,
        forbidden_topics: current?.forbidden_topics ?? [],
        daily_cap: current?.daily_cap ?? 200,
        ...changes,
      };
      return unwrap(
        api.PUT('/api/agent/sites/{site}/answer-bot', {
          params: { path: { site: siteId } },
          body,
        }),
      );
    },
    onSuccess: (result) => {
      queryClient.setQueryData(keys.answerBot.settings(siteId), result);
      notice.success(t('settings.saved'));
    },
    onError: notice.failure,
  });
}
