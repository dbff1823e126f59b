import { setReasonSentences } from '../../../shared/api/client';
import { GENERIC_FIELD_CODES } from '../app/error-messages';
import { isMessageKey, t } from '../i18n';

/** The dashboard's sentence for an error slug (`error_reason` or a field's slug), if it has one. */
export function reasonSentence(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  const key = `error.reason.${reason}`;
  return isMessageKey(key) ? t(key) : undefined;
}

/** Whether a field's slug is a domain reason (worded by itself) rather than a generic rule. */
export const isDomainReason = (reason: string | undefined): reason is string =>
  reason !== undefined && !GENERIC_FIELD_CODES.includes(reason);

// Every failed call of the dashboard speaks with this catalog (ApiError's message and fieldErrors).
setReasonSentences(reasonSentence);
