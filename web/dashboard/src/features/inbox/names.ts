import type { Conversation } from '../../api/queries';
import { t } from '../../i18n';

export function visitorName(visitor: Conversation['visitor']): string {
  return visitor.name || visitor.email || t('inbox.visitor.anonymous', { id: visitor.id });
}

export const STATUS_COLOR: Record<Conversation['status'], string> = {
  waiting: 'orange',
  active: 'teal',
  closed: 'gray',
  missed: 'red',
};
