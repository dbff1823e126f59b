import request from 'supertest';

export interface WidgetChat {
  id: number;
  visitorUid: string;
  visitorId: number;
  /** The visitor's session token, for the widget routes that take only it. */
  sessionToken: string;
  messageIds: number[];
}

/**
 * A visitor opens the widget of `site` (with any `init` fields in `extra`) and writes each of
 * `bodies`: through the API, so the conversation starts as in production.
 */
export async function startWidgetChat(
  baseUrl: string,
  site: { widget_key: string },
  bodies: string[] = ['Hello'],
  extra: Record<string, unknown> = {},
): Promise<WidgetChat> {
  const session = await request(baseUrl)
    .post('/api/widget/init')
    .send({ widget_key: site.widget_key, ...extra })
    .expect(200);
  const messageIds: number[] = [];
  for (const body of bodies) {
    const sent = await request(baseUrl)
      .post('/api/widget/messages')
      .set('Authorization', `Bearer ${session.body.session_token as string}`)
      .send({ body })
      .expect(201);
    messageIds.push(sent.body.id as number);
  }
  return {
    id: session.body.conversation_id as number,
    visitorUid: session.body.visitor_uid as string,
    visitorId: session.body.visitor_id as number,
    sessionToken: session.body.session_token as string,
    messageIds,
  };
}
