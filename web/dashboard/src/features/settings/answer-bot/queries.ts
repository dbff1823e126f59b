import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../../../shared/api/client';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

type ImportState = Schemas['ContentImportStateDto'];

/** The states of an import still under way. */
export const RUNNING: ImportState['status'][] = ['queued', 'running'];

/** How many answers a page of the answer log shows. */
const LOG_PAGE = 20;

/** A site's bot replies, filtered by `q`. */
export function useBotReplies(siteId: number, q: string) {
  return useQuery({
    queryKey: keys.botReplies.list(siteId, q),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/bot-replies', {
          params: {
            query: { site_id: siteId, per_page: 100, ...(q.trim() ? { q: q.trim() } : {}) },
          },
        }),
      ),
  });
}

/** A site's content import, asked again every 2 s while it runs. */
export function useContentImport(siteId: number) {
  return useQuery({
    queryKey: keys.contentImport.site(siteId),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/sites/{site}/content-import', {
          params: { path: { site: siteId } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data && RUNNING.includes(query.state.data.data.status) ? 2000 : false,
  });
}

/** The bot's figures for a site over the last `days`. */
export function useAnswerBotReport(siteId: number, days: number) {
  return useQuery({
    queryKey: keys.answerBot.report(siteId, days),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/answer-bot/report', {
          params: { query: { days, site_id: siteId } },
        }),
      ),
  });
}

/** A page of the bot's answers on a site. */
export function useAnswerLog(siteId: number, page: number) {
  return useQuery({
    queryKey: keys.answerBot.log(siteId, page),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/answer-log', {
          params: { query: { site_id: siteId, page, per_page: LOG_PAGE } },
        }),
      ),
  });
}
