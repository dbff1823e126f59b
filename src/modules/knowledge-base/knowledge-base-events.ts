import { domainEvent as event } from '../outbox/domain-event';

const idOrNull = (id: string | null): number | null => (id === null ? null : Number(id));

/** The knowledge-base events, built in one place so the API and the dashboard emit the same. */
export const knowledgeBaseEvents = {
  published: (
    organizationId: string,
    article: {
      id: string;
      site_id: string;
      locale: string;
      title: string;
      slug: string;
      category_id: string | null;
      translation_of: string | null;
      published_at: Date | null;
    },
    url: string,
  ) =>
    event('kb.article_published', organizationId, {
      article: {
        id: Number(article.id),
        site_id: Number(article.site_id),
        locale: article.locale,
        title: article.title,
        slug: article.slug,
        category_id: idOrNull(article.category_id),
        translation_of: idOrNull(article.translation_of),
        published_at: new Date(article.published_at ?? Date.now()).toISOString(),
        url,
      },
    }),
};
