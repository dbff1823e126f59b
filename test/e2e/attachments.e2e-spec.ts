import type { Pool } from 'pg';
import request from 'supertest';
import { outboxEvents } from '../factories/conversations';
import { createApiKey, registerOrganization, type Registered } from '../factories/identity';
import { type AppProcess, eventually } from '../utils/app-process';
import { startTestApp, type TestApp } from '../utils/test-app';
import { connect, type TestSocket } from '../utils/sockets';
import { startReceiver } from '../utils/webhook-receiver';

interface Session {
  visitor_uid: string;
  visitor_id: number;
  session_token: string;
  conversation_id: number;
}

interface Attachment {
  id: number;
  file_name: string;
  content_type: string;
  size: number;
  url: string;
}

const PUBLIC_URL = 'https://chat.example.test';
const MAX_BYTES = 64 * 1024;
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000dIHDR-pretend-image-data'),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');

describe('attachments: upload, send, download', () => {
  let suite: TestApp;
  let app: AppProcess;
  let direct: string;
  let db: Pool;
  let org: Registered;
  let other: Registered;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const sockets: TestSocket[] = [];

  const init = async (site = org.site): Promise<Session> =>
    (
      await request(app.url)
        .post('/api/widget/init')
        .send({ widget_key: site.widget_key })
        .expect(200)
    ).body as Session;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  /** The download path of an attachment URL (which is absolute, on PUBLIC_URL). */
  const pathOf = (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/api/attachments/att_`)).toBe(true);
    return url.slice(PUBLIC_URL.length);
  };
  const upload = (path: string, token: string, file: Buffer, filename: string, type: string) =>
    request(app.url)
      .post(path)
      .set(bearer(token))
      .attach('file', file, { filename, contentType: type });

  beforeAll(async () => {
    ({ app, db, direct } = suite = await startTestApp({
      PUBLIC_URL,
      ATTACHMENT_MAX_BYTES: String(MAX_BYTES),
    }));
    org = await registerOrganization(app.url, 'Acme');
    other = await registerOrganization(app.url, 'Other');
    receiver = await startReceiver();
    await request(app.url)
      .post('/api/agent/webhooks')
      .set(bearer(org.token))
      .send({ url: `${receiver.url}/hook`, events: ['message.received', 'message.sent'] })
      .expect(201);
  });

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  afterAll(async () => {
    await receiver?.close();
    await suite?.stop();
  });

  // First in the file: the app purges on its first upload, then at most every ten minutes.
  it('an upload forgets uploads left unsent for an hour', async () => {
    const insert = (age: string) =>
      db.query<{ id: string }>(
        `INSERT INTO attachments (organization_id, token, uploader_type, uploader_id, file_name,
           content_type, size, data, created_at)
         VALUES ($1, $2, 'agent', $3, 'old.png', 'image/png', $4, $5, now() - $6::interval)
         RETURNING id`,
        [
          org.organization.id,
          `att_${Math.random().toString(36).slice(2).padEnd(40, 'x').slice(0, 40)}`,
          org.user.id,
          PNG.length,
          PNG,
          age,
        ],
      );
    const stale = (await insert('61 minutes')).rows[0].id;
    const recent = (await insert('50 minutes')).rows[0].id;
    await upload('/api/agent/attachments', org.token, PNG, 'new.png', 'image/png').expect(201);
    await eventually(async () => {
      const { rows } = await db.query(`SELECT 1 FROM attachments WHERE id = $1`, [stale]);
      return rows.length === 0;
    });
    const { rows } = await db.query(`SELECT 1 FROM attachments WHERE id = $1`, [recent]);
    expect(rows).toHaveLength(1);
  });

  it('a visitor uploads an image and sends it without text; agents, webhooks and the download see it', async () => {
    const visitor = await init();
    const agentSocket = await connect(direct, '/agent', org.token);
    sockets.push(agentSocket);

    const uploaded = await upload(
      '/api/widget/attachments',
      visitor.session_token,
      PNG,
      'shot.png',
      'image/png',
    ).expect(201);
    const attachment = uploaded.body.data as Attachment;
    expect(uploaded.body).toMatchObject({ status: true, message: 'File uploaded.', code: '201' });
    expect(attachment).toEqual({
      id: expect.any(Number),
      file_name: 'shot.png',
      content_type: 'image/png',
      size: PNG.length,
      url: expect.stringMatching(
        /^https:\/\/chat\.example\.test\/api\/attachments\/att_[A-Za-z0-9]{40}$/,
      ),
    });

    const sent = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(visitor.session_token))
      .send({ attachment_ids: [attachment.id] })
      .expect(201);
    expect(sent.body.data).toMatchObject({ body: '', private: false, attachments: [attachment] });

    const pushed = await agentSocket.next<{ id: number; attachments: Attachment[] }>(
      'message.created',
      (m) => m.id === sent.body.data.id,
    );
    expect(pushed.attachments).toEqual([attachment]);
    const detail = await request(app.url)
      .get(`/api/agent/conversations/${visitor.conversation_id}`)
      .set(bearer(org.token))
      .expect(200);
    expect(detail.body.data.messages[0].attachments).toEqual([attachment]);

    // The widget socket sends attachments too.
    const widgetSocket = await connect(direct, '/widget', visitor.session_token);
    sockets.push(widgetSocket);
    const second = (
      await upload(
        '/api/widget/attachments',
        visitor.session_token,
        PDF,
        'terms.pdf',
        'application/pdf',
      ).expect(201)
    ).body.data as Attachment;
    const viaSocket = await widgetSocket.ask<{
      status: boolean;
      data: { body: string; attachments: Attachment[] };
    }>('message', { body: 'and the terms', attachment_ids: [second.id] });
    expect(viaSocket).toMatchObject({
      status: true,
      data: { body: 'and the terms', attachments: [second] },
    });
    const refusedSocket = await widgetSocket.ask<{ status: boolean; errors: object }>('message', {
      attachment_ids: [second.id],
    });
    expect(refusedSocket).toMatchObject({ status: false, error_code: 'validation_failed' });
    expect(refusedSocket.errors).toHaveProperty('attachment_ids');

    const hook = await eventually(async () =>
      receiver.received.find(
        (r) =>
          r.body.event === 'message.received' &&
          (r.body.data as { message: { id: number } }).message.id === sent.body.data.id,
      ),
    );
    expect((hook.body.data as { message: unknown }).message).toEqual({
      id: sent.body.data.id,
      body: '',
      type: 'text',
      attachments: [attachment],
    });

    const file = await request(app.url)
      .get(pathOf(attachment.url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(file.body as Buffer, PNG)).toBe(0);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="shot.png"/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers['cache-control']).toBe('private, max-age=31536000, immutable');
  });

  it('an agent sends a document with a reply; the visitor gets it live, in catch-up, and message.sent carries it', async () => {
    const visitor = await init();
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(visitor.session_token))
      .send({ body: 'Can I have the invoice?' })
      .expect(201);
    const widgetSocket = await connect(direct, '/widget', visitor.session_token);
    sockets.push(widgetSocket);

    const uploaded = await upload(
      '/api/agent/attachments',
      org.token,
      PDF,
      'Rechnung März.pdf',
      'application/pdf',
    ).expect(201);
    const attachment = uploaded.body.data as Attachment;
    expect(attachment.file_name).toBe('Rechnung März.pdf');
    const reply = await request(app.url)
      .post(`/api/agent/conversations/${visitor.conversation_id}/messages`)
      .set(bearer(org.token))
      .send({ body: 'Here it is.', attachment_ids: [attachment.id] })
      .expect(201);
    expect(reply.body.attachments).toEqual([attachment]);

    const pushed = await widgetSocket.next<{ id: number; attachments: Attachment[] }>(
      'message.created',
      (m) => m.id === reply.body.id,
    );
    expect(pushed.attachments).toEqual([attachment]);
    const caughtUp = await request(app.url)
      .get('/api/widget/messages')
      .set(bearer(visitor.session_token))
      .expect(200);
    expect(caughtUp.body.data.at(-1)).toMatchObject({
      id: reply.body.id,
      attachments: [attachment],
    });
    const synced = await widgetSocket.ask<{ data: { id: number; attachments: Attachment[] }[] }>(
      'sync',
      { after_id: 0 },
    );
    expect(synced.data.at(-1)?.attachments).toEqual([attachment]);

    const hook = await eventually(async () =>
      receiver.received.find(
        (r) =>
          r.body.event === 'message.sent' &&
          (r.body.data as { message: { id: number } }).message.id === reply.body.id,
      ),
    );
    expect((hook.body.data as { message: { attachments: unknown } }).message.attachments).toEqual([
      attachment,
    ]);

    const file = await request(app.url).get(pathOf(attachment.url)).expect(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
  });

  it('an integration uploads idempotently through the public API and sends the file', async () => {
    const visitor = await init();
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(visitor.session_token))
      .send({ body: 'Hello' })
      .expect(201);
    const { key } = await createApiKey(app.url, org.token, [
      'conversations:read',
      'conversations:write',
    ]);
    const readOnly = await createApiKey(app.url, org.token, ['conversations:read']);

    const first = await upload('/api/v1/attachments', key, PNG, 'a.png', 'image/png')
      .set('Idempotency-Key', 'upload-1')
      .expect(201);
    const again = await upload('/api/v1/attachments', key, PNG, 'a.png', 'image/png')
      .set('Idempotency-Key', 'upload-1')
      .expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const otherFile = await upload('/api/v1/attachments', key, PDF, 'a.pdf', 'application/pdf')
      .set('Idempotency-Key', 'upload-1')
      .expect(422);
    expect(otherFile.body.errors).toHaveProperty('Idempotency-Key');
    const denied = await upload(
      '/api/v1/attachments',
      readOnly.key,
      PNG,
      'a.png',
      'image/png',
    ).expect(403);
    expect(denied.body.message).toBe('API key missing required ability: conversations:write');

    const sent = await request(app.url)
      .post(`/api/v1/conversations/${visitor.conversation_id}/messages`)
      .set(bearer(key))
      .send({ attachment_ids: [first.body.data.id] })
      .expect(201);
    expect(sent.body.data).toMatchObject({ body: '', attachments: [first.body.data] });
    const list = await request(app.url)
      .get(`/api/v1/conversations/${visitor.conversation_id}/messages`)
      .set(bearer(key))
      .expect(200);
    expect(list.body.data[0].attachments).toEqual([first.body.data]);
  });

  it('only the uploader may attach an unsent file, in its own organization', async () => {
    const alice = await init();
    const bob = await init();
    const foreign = await init(other.site);
    const own = (
      await upload(
        '/api/widget/attachments',
        alice.session_token,
        PNG,
        'a.png',
        'image/png',
      ).expect(201)
    ).body.data as Attachment;
    const refused = (session: Session, ids: number[]) =>
      request(app.url)
        .post('/api/widget/messages')
        .set(bearer(session.session_token))
        .send({ body: 'look', attachment_ids: ids })
        .expect(422);

    for (const response of [await refused(bob, [own.id]), await refused(foreign, [own.id])]) {
      expect(response.body.errors.attachment_ids).toEqual([
        'Each attachment must be one you uploaded and have not sent yet.',
      ]);
    }
    const started = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(alice.session_token))
      .send({ body: 'start' })
      .expect(201);
    const foreignStarted = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(foreign.session_token))
      .send({ body: 'hello' })
      .expect(201);
    const otherOrganization = await request(app.url)
      .post(`/api/agent/conversations/${foreignStarted.body.conversation_id}/messages`)
      .set(bearer(other.token))
      .send({ body: 'x', attachment_ids: [own.id] })
      .expect(422);
    expect(otherOrganization.body.errors).toHaveProperty('attachment_ids');
    const agentTakes = await request(app.url)
      .post(`/api/agent/conversations/${started.body.conversation_id}/messages`)
      .set(bearer(org.token))
      .send({ body: 'x', attachment_ids: [own.id] })
      .expect(422);
    expect(agentTakes.body.errors).toHaveProperty('attachment_ids');
    await refused(alice, [own.id, 999_999]);

    // Nothing was taken by the refusals: the uploader sends it once, and only once.
    await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(alice.session_token))
      .send({ attachment_ids: [own.id] })
      .expect(201);
    await refused(alice, [own.id]);

    const empty = await request(app.url)
      .post('/api/widget/messages')
      .set(bearer(alice.session_token))
      .send({ body: '' })
      .expect(422);
    expect(empty.body.errors.body).toContain(
      'The body field is required unless attachment_ids are given.',
    );
  });

  it('refuses files past the limit (413), of other types or with lying bytes (422), and unknown addresses (404)', async () => {
    const visitor = await init();
    const tooBig = await upload(
      '/api/widget/attachments',
      visitor.session_token,
      Buffer.concat([PDF, Buffer.alloc(MAX_BYTES)]),
      'big.pdf',
      'application/pdf',
    ).expect(413);
    expect(tooBig.body).toMatchObject({
      status: false,
      code: '413',
      error_code: 'payload_too_large',
      message: 'The file is larger than the 64 KiB limit.',
    });

    const fake = await upload(
      '/api/widget/attachments',
      visitor.session_token,
      Buffer.from('<script>alert(1)</script>'),
      'cat.png',
      'image/png',
    ).expect(422);
    expect(fake.body.error_code).toBe('validation_failed');
    expect(fake.body.errors.file[0]).toMatch(/^The file type is not accepted/);
    await upload(
      '/api/widget/attachments',
      visitor.session_token,
      Buffer.from('<svg/>'),
      'x.svg',
      'image/svg+xml',
    ).expect(422);
    await upload(
      '/api/widget/attachments',
      visitor.session_token,
      Buffer.from('<p>'),
      'x.html',
      'text/html',
    ).expect(422);

    const noFile = await request(app.url)
      .post('/api/widget/attachments')
      .set(bearer(visitor.session_token))
      .send({ file: 'not a file' })
      .expect(422);
    expect(noFile.body.errors.file).toEqual(['The file field is required.']);
    const wrongField = await request(app.url)
      .post('/api/agent/attachments')
      .set(bearer(org.token))
      .attach('upload', PNG, { filename: 'a.png', contentType: 'image/png' })
      .expect(422);
    expect(wrongField.body.errors).toHaveProperty('file');

    // Only the session token uploads: a visitor's key and UID are no login (issue 25).
    await request(app.url)
      .post('/api/widget/attachments')
      .query({ widget_key: org.site.widget_key, visitor_uid: visitor.visitor_uid })
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
      .expect(401);
    await request(app.url)
      .post('/api/widget/attachments')
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
      .expect(401);

    const missing = await request(app.url)
      .get(`/api/attachments/att_${'x'.repeat(40)}`)
      .expect(404);
    expect(missing.body).toMatchObject({ status: false, message: 'Not found.' });
    await request(app.url).get('/api/attachments/whatever').expect(404);
  });

  it('keeps each file in PostgreSQL with its organization', async () => {
    const { rows } = await db.query<{ organization_id: string; bytes: number }>(
      `SELECT organization_id, octet_length(data) AS bytes FROM attachments WHERE file_name = 'shot.png'`,
    );
    expect(Number(rows[0].organization_id)).toBe(org.organization.id);
    expect(rows[0].bytes).toBe(PNG.length);
    expect((await outboxEvents(db, 'message.received')).length).toBeGreaterThan(0);
  });
});
