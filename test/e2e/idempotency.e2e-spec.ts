import type { Pool } from 'pg';
import request from 'supertest';
import { createConversation } from '../factories/conversations';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import type { AppProcess } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';

describe('public API idempotency keys', () => {
  let suite: TestApp;
  let app: AppProcess;
  let db: Pool;
  let org: Registered;
  let key: string;

  beforeAll(async () => {
    ({ app, db } = suite = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }));
    org = await registerOrganization(app.url);
    ({ key } = await createApiKey(app.url, org.token, [
      'tickets:write',
      'tickets:read',
      'conversations:write',
    ]));
  });

  afterAll(() => suite?.stop());

  const post = (path: string, idempotencyKey?: string, apiKey = key) => {
    const req = request(app.url).post(path).set('X-Service-Key', apiKey);
    return idempotencyKey ? req.set('Idempotency-Key', idempotencyKey) : req;
  };
  const ticketCount = async (subject: string) =>
    Number(
      (
        await db.query<{ n: string }>(`SELECT count(*) AS n FROM tickets WHERE subject = $1`, [
          subject,
        ])
      ).rows[0].n,
    );

  it('replays the first response for the same key, endpoint and body, and creates once', async () => {
    const body = { subject: 'Refund please', description: 'Order 42' };
    const first = await post('/api/v1/tickets', 'key-create-1').send(body).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await post('/api/v1/tickets', 'key-create-1')
      .send({ description: 'Order 42', subject: 'Refund please' })
      .expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await ticketCount('Refund please')).toBe(1);
  });

  it('replays the first response byte for byte, with its status and headers, errors included', async () => {
    const body = { subject: 'Byte for byte', description: 'Keys in order' };
    const first = await post('/api/v1/tickets', 'key-bytes').send(body).expect(201);
    const replay = await post('/api/v1/tickets', 'key-bytes').send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    expect(replay.headers['content-type']).toBe(first.headers['content-type']);
    expect(replay.headers['content-length']).toBe(first.headers['content-length']);

    const failed = await post('/api/v1/tickets', 'key-bytes-error')
      .send({ subject: 'no description' })
      .expect(422);
    const failedAgain = await post('/api/v1/tickets', 'key-bytes-error')
      .send({ subject: 'no description' })
      .expect(422);
    expect(failedAgain.headers['idempotent-replayed']).toBe('true');
    expect(failedAgain.text).toBe(failed.text);
    expect(failedAgain.headers['content-type']).toBe(failed.headers['content-type']);
  });

  it('still replays a response kept before bodies were stored as text', async () => {
    const body = { subject: 'Kept as jsonb', description: 'x' };
    const first = await post('/api/v1/tickets', 'key-old-row').send(body).expect(201);
    await db.query(
      `UPDATE idempotency_keys SET body = body_text::jsonb, body_text = NULL WHERE key = 'key-old-row'`,
    );
    const replay = await post('/api/v1/tickets', 'key-old-row').send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await ticketCount('Kept as jsonb')).toBe(1);
  });

  it('refuses the same key with another body or another endpoint (422 on Idempotency-Key)', async () => {
    await post('/api/v1/tickets', 'key-reuse').send({ subject: 'A', description: 'a' }).expect(201);
    const otherBody = await post('/api/v1/tickets', 'key-reuse')
      .send({ subject: 'B', description: 'b' })
      .expect(422);
    expect(Object.keys(otherBody.body.errors)).toEqual(['Idempotency-Key']);
    const c = await createConversation(db, {
      organizationId: org.organization.id,
      siteId: org.site.id,
    });
    const otherEndpoint = await post(`/api/v1/conversations/${c.id}/messages`, 'key-reuse')
      .send({ subject: 'A', description: 'a' })
      .expect(422);
    expect(Object.keys(otherEndpoint.body.errors)).toEqual(['Idempotency-Key']);
  });

  it('lets exactly one of many concurrent requests with one key run; the others wait their turn (409) or replay', async () => {
    const body = { subject: 'Concurrent', description: 'x' };
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => post('/api/v1/tickets', 'key-race').send(body)),
    );
    const fresh = responses.filter(
      (r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 409) expect(response.body).toMatchObject({ error_code: 'conflict' });
      else expect(response.body.data).toEqual(fresh[0].body.data);
    }
    expect(await ticketCount('Concurrent')).toBe(1);
  });

  it('keeps and replays an error response too', async () => {
    const first = await post('/api/v1/tickets', 'key-invalid')
      .send({ subject: 'no description' })
      .expect(422);
    const again = await post('/api/v1/tickets', 'key-invalid')
      .send({ subject: 'no description' })
      .expect(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.errors).toEqual(first.body.errors);
    // The reasons are part of the stored bytes (issue 32).
    expect(first.body.field_reasons).toEqual({ description: ['required'] });
    expect(again.text).toBe(first.text);
  });

  it('covers PATCH, keeps keys per API key, and does nothing without the header', async () => {
    const created = await post('/api/v1/tickets')
      .send({ subject: 'Patchable', description: 'x' })
      .expect(201);
    const patch = () =>
      request(app.url)
        .patch(`/api/v1/tickets/${created.body.data.id}/status`)
        .set('X-Service-Key', key)
        .set('Idempotency-Key', 'key-patch')
        .send({ status: 'pending' });
    await patch().expect(200);
    expect((await patch().expect(200)).headers['idempotent-replayed']).toBe('true');

    const { key: otherKey } = await createApiKey(app.url, org.token, ['tickets:write']);
    const same = await post('/api/v1/tickets', 'key-create-1', otherKey)
      .send({ subject: 'Other key', description: 'x' })
      .expect(201);
    expect(same.headers['idempotent-replayed']).toBeUndefined();

    await post('/api/v1/tickets').send({ subject: 'No header', description: 'x' }).expect(201);
    await post('/api/v1/tickets').send({ subject: 'No header', description: 'x' }).expect(201);
    expect(await ticketCount('No header')).toBe(2);
  });

  it('refuses a key longer than 255 characters', async () => {
    const res = await post('/api/v1/tickets', 'k'.repeat(256))
      .send({ subject: 'Long', description: 'x' })
      .expect(422);
    expect(Object.keys(res.body.errors)).toEqual(['Idempotency-Key']);
    await post('/api/v1/tickets', 'k'.repeat(255))
      .send({ subject: 'Long', description: 'x' })
      .expect(201);
  });
});
