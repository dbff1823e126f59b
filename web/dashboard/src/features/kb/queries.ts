import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../api/client';
import { isDomainReason, reasonSentence } from '../../api/errors';
import { LIST_PAGE_SIZE, allPages, type KbArticle, type KbArticleFilters } from '../../api/queries';
import { keys } from '../../api/keys';
import { t, type MessageKey } from '../../i18n';

export const KB_LOCALES = ['en', 'de', 'fr', 'es', 'pt', 'ar'] as const;
export type KbLocale = (typeof KB_LOCALES)[number];
export const KB_STATUSES = ['draft', 'published', 'archived'] as const;
export type KbStatus = KbArticle['status'];

export const STATUS_COLOR: Record<KbStatus, string> = {
  draft: 'gray',
  published: 'teal',
  archived: 'orange',
};

export const localeName = (locale: string) => t(`kb.locale.${locale as KbLocale}`);
export const localeOptions = KB_LOCALES.map((value) => ({ value, label: localeName(value) }));
export const statusOptions = KB_STATUSES.map((value) => ({
  value,
  label: t(`kb.status.${value}`),
}));

export function useKbArticles(filters: KbArticleFilters) {
  return useQuery({
    queryKey: keys.kb.articleList(filters),
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/kb/articles', {
          params: { query: { per_page: LIST_PAGE_SIZE, ...filters } },
        }),
      ),
  });
}

export function useKbArticle(id: number | undefined) {
  return useQuery({
    queryKey: keys.kb.article(id ?? 0),
    enabled: id !== undefined,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/agent/kb/articles/{article}', { params: { path: { article: id! } } }),
        )
      ).data,
  });
}

/** The categories of a site (every language unless one is named), in their order. */
export function useKbCategories(siteId: number | undefined, locale?: KbLocale) {
  return useQuery({
    queryKey: keys.kb.categoryList(siteId, locale),
    enabled: siteId !== undefined,
    queryFn: () =>
      allPages((query) =>
        unwrap(
          api.GET('/api/agent/kb/categories', {
            params: { query: { ...query, site_id: siteId, locale } },
          }),
        ),
      ),
  });
}

/** Every category of the organization (to name an article's category in lists). */
export function useAllKbCategories() {
  return useQuery({
    queryKey: keys.kb.categoryList(undefined),
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/kb/categories', { params: { query } }))),
  });
}

const FIELD_KEYS: readonly string[] = [
  'title',
  'name',
  'slug',
  'body',
  'excerpt',
  'category_id',
  'translation_of',
  'site_id',
  'locale',
  'position',
];

/**
 * A failed call as the catalog's sentences, never the server's raw text: one per field of a 422
 * (`fields`), and a sentence for the whole (`message`). `conflict` names the 409 of the form.
 */
export function kbErrors(
  error: unknown,
  conflict: MessageKey = 'kb.error.slugTaken',
): { message: string | null; fields: Record<string, string> } {
  if (!error) return { message: null, fields: {} };
  if (!(error instanceof ApiError)) return { message: t('kb.error.generic'), fields: {} };
  if (error.status === 409) return { message: t(conflict), fields: { slug: t(conflict) } };
  if (error.status === 403) return { message: t('kb.error.forbidden'), fields: {} };
  if (error.status === 404) return { message: t('kb.error.notFound'), fields: {} };
  if (error.status === 422) {
    const fields: Record<string, string> = {};
    const reasons = error.fieldReasons();
    for (const field of Object.keys(error.fieldErrors())) {
      // A domain reason has its own sentence (a category of another site); a rule the field's.
      const own = isDomainReason(reasons[field]) ? reasonSentence(reasons[field]) : undefined;
      fields[field] =
        own ??
        (FIELD_KEYS.includes(field)
          ? t(`kb.invalid.${field}` as MessageKey)
          : t('kb.invalid.other'));
    }
    return { message: t('kb.error.invalid'), fields };
  }
  return { message: t('kb.error.generic'), fields: {} };
}
