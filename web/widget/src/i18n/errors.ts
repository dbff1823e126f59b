import { en, type MessageKey } from './en';
import { t } from './index';

/**
 * The widget's sentence, in the visitor's language, for an error slug (`error_reason` or a field's
 * slug in `field_reasons`; issue 32), or undefined for a slug the catalog lacks (then the
 * server's English text shows). `catalog.spec.ts` fails when a slug the widget can meet is
 * missing: it reads the server's registry.
 */
export function reasonSentence(reason: string | undefined): string | undefined {
  if (!reason) return undefined;
  const key = `error.reason.${reason}`;
  return Object.prototype.hasOwnProperty.call(en, key) ? t(key as MessageKey) : undefined;
}
