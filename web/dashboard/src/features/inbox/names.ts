import type { Conversation } from '../../api/queries';
import { t } from '../../i18n';

export function visitorName(visitor: Conversation['visitor']): string {
  return visitor.name || visitor.email || t('inbox.visitor.anonymous', { id: visitor.id });
}

/** The visitor's rating of a conversation, with their comment when they left one. */
export function reviewText(rating: number, comment: string | null | undefined): string {
  const rated = t('inbox.review.rated', { rating });
  return comment ? t('inbox.review.withComment', { rated, comment }) : rated;
}

export const STATUS_COLOR: Record<Conversation['status'], string> = {
  waiting: 'orange',
  active: 'teal',
  closed: 'gray',
  missed: 'red',
};
