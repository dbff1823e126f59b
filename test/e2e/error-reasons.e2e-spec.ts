import request from 'supertest';
import { ERROR_REASONS } from '../../src/common/errors/reasons';
import {
  addMember,
  createApiKey,
  registerOrganization,
  type Registered,
} from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

/**
 * Issue 32, errors as codes: beside the unchanged `error_code`, `message` and `errors`, an error
 * body names its domain reason (`error_reason`) and the slug of each field text
 * (`field_reasons`), which the apps look up in their catalogs. Every response here also passes
 * the OpenAPI check of the test proxy, so the document describes both fields.
 */
describe('error reasons on the wire', () => {
  let suite: TestApp;
  let app: AppProcess;
  let org: Registered;
  let apiKey: string;

  const agent = (token = org.token) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    ({ app } = suite = await startTestApp());
    org = await registerOrganization(app.url);
    ({ key: apiKey } = await createApiKey(app.url, org.token, [
      'conversations:read',
      'conversations:write',
    ]));
  });

  afterAll(() => suite?.stop());

  it('names the reason of a 409: a reply to a closed conversation', async () => {
    const session = (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: org.site.widget_key, visitor_name: 'Nora' })
        .expect(200)
    ).body as { session_token: string; conversation_id: number };
    await request(app.url)
      .post('/api/widget/messages')
      .set({ Authorization: `Bearer ${session.session_token}` })
      .send({ body: 'Hello' })
      .expect(201);
    const api = () => ({ 'X-Service-Key': apiKey });
    await request(app.url)
      .post(`/api/v1/conversations/${session.conversation_id}/close`)
      .set(api())
      .send({})
      .expect(200);
    const res = await request(app.url)
      .post(`/api/v1/conversations/${session.conversation_id}/messages`)
      .set(api())
      .send({ body: 'late' })
      .expect(409);
    expect(res.body).toEqual({
      status: false,
      code: '409',
      message: 'The conversation is closed.',
      error_code: 'conflict',
      error_reason: 'conversation_closed',
      datetime: expect.any(String),
    });
  });

  it('names the reason of a 403: an agent (not owner or admin) managing the team', async () => {
    const member = await addMember(app.url, org.token, 'agent');
    const res = await request(app.url)
      .post('/api/agent/team')
      .set(agent(member.token))
      .send({ name: 'X', email: 'x@example.com', role: 'agent', password: 'password123' })
      .expect(403);
    expect(res.body).toMatchObject({
      error_code: 'forbidden',
      message: 'This action requires the owner or admin role.',
      error_reason: 'admin_only',
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.field_reasons).toBeUndefined();
  });

  it('names the reason of a domain 422 and of its field: an address already taken', async () => {
    const res = await request(app.url)
      .post('/api/agent/auth/register')
      .send({
        organization_name: 'Other',
        name: 'X',
        email: org.user.email.toUpperCase(),
        password: 'password123',
      })
      .expect(422);
    expect(res.body).toMatchObject({
      error_code: 'validation_failed',
      message: 'The email has already been taken.',
      error_reason: 'email_taken',
      errors: { email: ['The email has already been taken.'] },
      field_reasons: { email: ['email_taken'] },
    });
  });

  it('gives each failed DTO rule its generic field code, text for text', async () => {
    const res = await request(app.url)
      .post('/api/agent/auth/register')
      .send({
        organization_name: 'x'.repeat(300),
        email: 'not an address',
        password: 'password123',
      })
      .expect(422);
    const body = res.body as {
      message: string;
      error_reason: string;
      errors: Record<string, string[]>;
      field_reasons: Record<string, string[]>;
    };
    // The texts are as before; each has a slug in the same place.
    expect(Object.keys(body.field_reasons)).toEqual(Object.keys(body.errors));
    for (const [field, texts] of Object.entries(body.errors)) {
      expect(body.field_reasons[field]).toHaveLength(texts.length);
      for (const reason of body.field_reasons[field]) expect(ERROR_REASONS).toHaveProperty(reason);
    }
    expect(body.errors.name).toEqual(['The name field is required.']);
    expect(body.field_reasons.name).toEqual(['required']);
    expect(body.field_reasons.email).toContain('not_email');
    expect(body.field_reasons.organization_name).toContain('too_long');
    // The message is the first text, and the reason the slug of that text.
    const first = Object.keys(body.errors)[0];
    expect(body.message).toBe(body.errors[first][0]);
    expect(body.error_reason).toBe(body.field_reasons[first][0]);
  });

  it('gives the text rule its own field codes', async () => {
    const res = await request(app.url)
      .patch('/api/agent/me')
      .set(agent())
      .send({ name: 'a\u0000b' })
      .expect(422);
    expect(res.body).toMatchObject({
      error_reason: 'invalid_text',
      field_reasons: { name: ['invalid_text'] },
    });
  });

  it('leaves errors without a domain reason as they were: a 404 has none', async () => {
    const res = await request(app.url)
      .get('/api/agent/conversations/999999999')
      .set(agent())
      .expect(404);
    expect(res.body).toEqual({
      status: false,
      code: '404',
      message: 'Not found.',
      error_code: 'not_found',
      datetime: expect.any(String),
    });
  });
});
