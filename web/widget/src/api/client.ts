import { createApiClient, unwrap, ApiError, type Schemas } from '../../../shared/api/client';

export { unwrap, ApiError };
export type WidgetConfig = Schemas['WidgetConfigDto'];
export type VisitorProfile = Schemas['VisitorProfileDto'];
export type ChatMessage = Schemas['ChatMessageDto'];

/** What later widget settings add to `widget_config` (appearance, agent presence). */
export interface WidgetExtras {
  appearance?: { color?: string; position?: string; greeting?: string; launcher_label?: string };
  agents_online?: boolean;
}

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
