import { api, setSessionToken, unwrap } from '../api/client';
import { frameParams } from './host';
import { session } from './session';

export type InitAnswer = Awaited<ReturnType<typeof requestInit>>;

function requestInit(extra: { name?: string; email?: string; phone?: string; locale: string }) {
  return unwrap(
    api.POST('/api/widget/init', {
      body: {
        widget_key: frameParams.widgetKey,
        locale: extra.locale,
        ...timeZone(),
        ...(extra.name ? { visitor_name: extra.name.slice(0, 255) } : {}),
        ...(extra.email ? { visitor_email: extra.email.slice(0, 255) } : {}),
        ...(extra.phone ? { visitor_phone: extra.phone.slice(0, 50) } : {}),
      },
    }),
  );
}

/**
 * Opens the visitor's session, or resumes it with the stored session token (sent as the bearer
 * token: the server resumes its visitor while the session lives, else starts a new one).
 */
export async function startSession(extra: {
  locale: string;
  name?: string;
  email?: string;
  phone?: string;
}): Promise<InitAnswer> {
  await session.ready();
  setSessionToken(session.token(frameParams.widgetKey) ?? '');
  const answer = await requestInit(extra);
  session.saveToken(frameParams.widgetKey, answer.session_token);
  setSessionToken(answer.session_token);
  return answer;
}

/**
 * Ends the visitor's session on the server (its account login too) and forgets it here: the
 * widget's `shutdown`, for a shared computer. The local copy goes even when the server is away.
 */
export async function endSession(): Promise<void> {
  try {
    await unwrap(api.POST('/api/widget/session/end', {}));
  } catch {
    // Forgotten here all the same; the token lapses on its own.
  }
  session.forget(frameParams.widgetKey);
  setSessionToken('');
}

/** The visitor's own time zone, for their local time in the agents' panel. */
function timeZone(): { timezone?: string } {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone ? { timezone: zone } : {};
  } catch {
    return {};
  }
}
