import type { Schemas } from '../../../shared/api/client';

export type Attachment = Schemas['AttachmentDto'];

/** What a message's `attachments` items must carry to be shown; anything else is skipped. */
export function validAttachments(items: Record<string, unknown>[]): Attachment[] {
  return items.filter(
    (a): a is Record<string, unknown> & Attachment =>
      typeof a.id === 'number' &&
      typeof a.file_name === 'string' &&
      typeof a.content_type === 'string' &&
      typeof a.url === 'string' &&
      /^https?:\/\//.test(a.url),
  );
}
