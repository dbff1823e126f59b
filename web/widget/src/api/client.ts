import {
  createApiClient,
  unwrap,
  ApiError,
  setReasonSentences,
  type Schemas,
} from '../../../shared/api/client';
import { reasonSentence } from '../i18n/errors';

export { unwrap, ApiError };
export type WidgetConfig = Schemas['WidgetConfigDto'];
export type VisitorProfile = Schemas['VisitorProfileDto'];
export type ChatMessage = Schemas['ChatMessageDto'];

// Every failed call speaks the visitor's language: the catalog's sentence for the error's slug.
setReasonSentences(reasonSentence);

let sessionToken = '';

/** The widget's one API client: the service's own origin, the session token once init gave it. */
export const api = createApiClient({ baseUrl: location.origin });
api.use({
  onRequest({ request }) {
    if (sessionToken) request.headers.set('Authorization', `Bearer ${sessionToken}`);
    return request;
  },
});

export function setSessionToken(token: string): void {
  sessionToken = token;
}

export function getSessionToken(): string {
  return sessionToken;
}

export type Attachment = Schemas['AttachmentDto'];

/** Uploads one file (multipart field `file`); the answer's `id` goes into a message. */
export function uploadAttachment(file: File): Promise<{ data: Attachment }> {
  return unwrap(
    api.POST('/api/widget/attachments', {
      // The generated type calls the binary part a string; the body is serialized as a form.
      body: { file: file as unknown as string },
      bodySerializer: (body) => {
        const form = new FormData();
        form.append('file', (body as unknown as { file: File }).file);
        return form;
      },
    }),
  );
}
