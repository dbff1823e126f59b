// The raw baseline: plain `node:http` and a `pg` pool of the service's size (20), running the SQL
// the service runs (lib/queries.mjs) and answering the same JSON (envelope, pagination block,
// absolute links). No framework, no request log. The organization and the acting agent come from
// the environment. By default nothing is authenticated; with AUTHENTICATE=1 each request also
// runs the service's two per-request statements, the API key lookup and the rate-limit counter
// (src/modules/api-keys/api-keys.repository.ts, src/common/rate-limit/rate-limit.store.ts).
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import * as q from './lib/queries.mjs';

const { DATABASE_URL, PORT, PUBLIC_URL, ORGANIZATION_ID: ORG, ACTOR_ID } = process.env;
const AUTHENTICATE = process.env.AUTHENTICATE === '1';
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 20 });

const rows = async ({ text, values }, client = pool) => (await client.query(text, values)).rows;
const iso = (value) => (value ? new Date(value).toISOString() : null);
const id = (value) => (value === null ? null : Number(value));

const conversationJson = (row) => ({
  id: Number(row.id),
  site_id: Number(row.site_id),
  visitor_id: Number(row.visitor_id),
  status: row.status,
  type: row.type,
  locale: row.locale,
  assigned_agent_id: id(row.assigned_agent_id),
  started_at: iso(row.started_at),
  closed_at: iso(row.closed_at),
  visitor: { id: Number(row.visitor_id), name: row.visitor_name, email: row.visitor_email },
});
const messageJson = (row) => ({
  id: Number(row.id),
  body: row.body,
  type: row.type,
  sender_type: row.sender_type,
  sender_id: id(row.sender_id),
  created_at: iso(row.created_at),
  attachments: row.attachments,
  private: row.private,
  sender_mismatch: row.sender_mismatch,
});
const ticketJson = (row) => ({
  id: Number(row.id),
  ticket_number: row.ticket_number,
  subject: row.subject,
  status: row.status,
  priority: row.priority,
  source: row.source,
  created_at: iso(row.created_at),
});

/** The page block of src/common/http/pagination.ts, from `{ rows, count }` statements. */
async function paginate({ rows: list, count }, toJson, page, url) {
  const [data, [{ total }]] = await Promise.all([rows(list), rows(count)]);
  const lastPage = Math.max(1, Math.ceil(Number(total) / page.perPage));
  const link = (n) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete('page');
    params.set('page', String(n));
    return `${PUBLIC_URL}${url.pathname}?${params}`;
  };
  return {
    data: data.map(toJson),
    current_page: page.page,
    per_page: page.perPage,
    total: Number(total),
    last_page: lastPage,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
  };
}

function pageOf(url) {
  const page = Number(url.searchParams.get('page') ?? 1);
  const perPage = Number(url.searchParams.get('per_page') ?? 50);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** The service's reply transaction: lock, insert, mark the chat active, write the outbox row. */
async function reply(conversationId, body) {
  const [agent] = await rows({
    text: `SELECT id FROM users WHERE organization_id = $1 AND id = $2 AND removed_at IS NULL`,
    values: [ORG, ACTOR_ID],
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `SELECT id FROM conversations WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [ORG, conversationId],
    );
    const [conversation] = await rows(q.findConversation(ORG, conversationId), client);
    if (conversation.status === 'closed') throw new Error('closed');
    const [message] = await rows(
      {
        text: `INSERT INTO messages (organization_id, conversation_id, sender_type, sender_id, body, type)
         VALUES ($1, $2, 'agent', $3, $4, 'text') RETURNING ${q.MESSAGE}`,
        values: [ORG, conversationId, agent.id, body],
      },
      client,
    );
    await client.query(
      `UPDATE conversations SET
         status = CASE WHEN status IN ('waiting', 'missed') THEN 'active' ELSE status END,
         assigned_agent_id = COALESCE(assigned_agent_id, $2),
         last_message_at = now(), updated_at = now()
       WHERE id = $1`,
      [conversationId, agent.id],
    );
    // The same event row, marked as relayed: no relay runs here to pick it up.
    const event = {
      organization_id: Number(ORG),
      conversation_id: Number(conversationId),
      site_id: Number(conversation.site_id),
      message: { id: Number(message.id), body, type: 'text', sender_id: Number(agent.id) },
    };
    await client.query(
      `INSERT INTO outbox_events (organization_id, event_type, payload, processed_at)
       VALUES ($1, 'message.sent', $2, now())`,
      [ORG, event],
    );
    await client.query('COMMIT');
    const json = messageJson(message);
    return [201, 'Message sent.', { data: json, ...json }];
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function authenticate(request) {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  if (!presented) return false;
  const [key] = await rows({
    text: `SELECT id, organization_id, created_by_user_id, name, key_prefix, key_hash, abilities,
      last_used_at, created_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    values: [createHash('sha256').update(presented).digest()],
  });
  if (!key) return false;
  await rows({
    text: `INSERT INTO rate_limit_hits AS r (key, hits, reset_at)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= now() THEN EXCLUDED.reset_at ELSE r.reset_at END
       RETURNING hits, reset_at`,
    values: [`api-key:${key.id}`, 60_000],
  });
  return true;
}

async function route(request, url, body) {
  if (url.pathname === '/ready') return [200, 'OK'];
  if (AUTHENTICATE && !(await authenticate(request))) return [401, 'Unauthenticated.'];
  const page = pageOf(url);
  const params = Object.fromEntries(url.searchParams);
  if (request.method === 'GET' && url.pathname === '/api/v1/conversations') {
    const statements = q.conversationsPage(ORG, { status: params.status }, page);
    return [200, 'OK', await paginate(statements, conversationJson, page, url)];
  }
  if (request.method === 'GET' && url.pathname === '/api/v1/tickets') {
    const statements = q.ticketsPage(ORG, { status: params.status }, page);
    return [200, 'OK', await paginate(statements, ticketJson, page, url)];
  }
  const messages = /^\/api\/v1\/conversations\/(\d+)\/messages$/.exec(url.pathname);
  if (!messages) return [404, 'Not found.'];
  const conversationId = messages[1];
  if ((await rows(q.findConversation(ORG, conversationId))).length === 0)
    return [404, 'Not found.'];
  if (request.method === 'POST') return reply(conversationId, JSON.parse(body).body);
  const statements = q.messagesPage(ORG, conversationId, page);
  return [200, 'OK', await paginate(statements, messageJson, page, url)];
}

function respond(response, [status, message, fields = {}]) {
  const head = { status: status < 400, message, code: String(status) };
  const json = JSON.stringify({ ...head, datetime: new Date().toISOString(), ...fields });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
}

const server = http
  .createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      route(request, new URL(request.url, PUBLIC_URL), body)
        .catch((error) => {
          console.error(error);
          return [500, 'Server error.'];
        })
        .then((answer) => respond(response, answer));
    });
  })
  .listen(Number(PORT), '127.0.0.1');
// A clean exit on SIGTERM, so `--cpu-prof` (BENCH_PROFILE=1) writes the profile.
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
