import { api, ApiError, setSessionToken, unwrap } from '../api/client';
import { frameParams } from './host';
import { session } from './session';

export type InitAnswer = Awaited<ReturnType<typeof requestInit>>;

function requestInit(body: Parameters<typeof initBody>[0] & { visitor_uid?: string }) {
  return unwrap(api.POST('/api/widget/init', { body: initBody(body) }));
}

function initBody(extra: {
  name?: string;
  email?: string;
  phone?: string;
  visitor_uid?: string;
  locale: string;
}) {
  return {
    widget_key: frameParams.widgetKey,
    locale: extra.locale,
    ...(extra.visitor_uid ? { visitor_uid: extra.visitor_uid } : {}),
    ...(extra.name ? { visitor_name: extra.name.slice(0, 255) } : {}),
    ...(extra.email ? { visitor_email: extra.email.slice(0, 255) } : {}),
    ...(extra.phone ? { visitor_phone: extra.phone.slice(0, 50) } : {}),
  };
}

/**
 * Opens (or resumes, with the stored `visitor_uid`) the visitor's session. A stored uid the
 * service no longer knows starts a fresh visitor instead of failing.
 */
export async function startSession(extra: {
  locale: string;
  name?: string;
  email?: string;
  phone?: string;
}): Promise<InitAnswer> {
  const stored = session.visitorUid(frameParams.widgetKey);
  let answer: InitAnswer;
  try {
    answer = await requestInit({ ...extra, visitor_uid: stored });
  } catch (error) {
    if (!stored || !(error instanceof ApiError) || ![404, 422].includes(error.status)) throw error;
    session.forget(frameParams.widgetKey);
    answer = await requestInit(extra);
  }
  session.saveVisitorUid(frameParams.widgetKey, answer.visitor_uid);
  setSessionToken(answer.session_token);
  return answer;
}
