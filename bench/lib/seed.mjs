// Fills one organization with a year of support traffic, set-based (INSERT ... SELECT
// generate_series), so a million messages take seconds rather than minutes.
//
// Shape: `conversations` conversations of `messagesPerConversation` messages each, visitors for
// 80 % of the conversations (some come back), one ticket per 10 conversations. Conversation
// times spread evenly over the last 365 days; 80 % are closed, the rest waiting, missed or
// active. A conversation's messages are 30 s apart and interleave with those of 49 others (as
// concurrent chats do), so they do not sit side by side in the table.
import pg from 'pg';

const INTERLEAVE = 50;

const BODIES = [
  'Hi, I cannot log in to my account since this morning.',
  'Thanks for reaching out! Could you tell me the email address you signed up with?',
  'Sure, it is the one on my invoice. I also tried resetting the password but got no email.',
  'I see the reset emails were blocked by your mail provider. I have sent a new link just now.',
  'Got it, that worked. While I have you: can I change the plan from monthly to yearly?',
  'Yes, open Billing, choose "Change plan" and pick yearly; the rest of this month is credited.',
  'Perfect, thank you very much for the quick help!',
  'You are welcome. Is there anything else I can help you with today?',
];

/** Seeds `organization` (the `org:create --json` result) and returns ids the load can use. */
export async function seed(databaseUrl, organization, { conversations, messagesPerConversation }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const base = async (table) =>
      Number((await client.query(`SELECT coalesce(max(id), 0) AS id FROM ${table}`)).rows[0].id);
    const ids = {
      v: await base('visitors'),
      c: await base('conversations'),
      m: await base('messages'),
    };
    const n = conversations;
    const visitors = Math.ceil(n * 0.8);
    const p = {
      org: organization.organization.id,
      site: organization.site.id,
      owner: organization.owner.id,
    };
    // The time of conversation number `g` (1..n): evenly spread over the last year.
    const time = (g) =>
      `(now() - interval '365 days' + (${g})::float8 / ${n} * interval '365 days')`;

    await client.query(
      `INSERT INTO visitors (id, organization_id, site_id, visitor_uid, name, email, country,
         language, pre_chat_submitted, last_seen_at, created_at, updated_at)
       SELECT ${ids.v} + g, $1, $2, md5('bench-visitor-' || (${ids.v} + g))::uuid,
         CASE WHEN g % 3 <> 0 THEN 'Visitor ' || g END,
         CASE WHEN g % 3 <> 0 THEN 'visitor' || g || '@example.com' END,
         (ARRAY['US', 'DE', 'FR', 'GB', 'IN', 'BR'])[1 + g % 6], 'en', g % 3 <> 0,
         ${time('g')}, ${time('g')}, ${time('g')}
       FROM generate_series(1, ${visitors}) g`,
      [p.org, p.site],
    );

    // A returning visitor's earlier conversation is closed: a visitor has one open at most.
    const status = `CASE WHEN g <= ${n - visitors} THEN 'closed' ELSE CASE g % 20 WHEN 0 THEN 'waiting'
      WHEN 1 THEN 'missed' WHEN 2 THEN 'active' WHEN 3 THEN 'active' ELSE 'closed' END END`;
    const span = `${messagesPerConversation * 30} * interval '1 second'`;
    await client.query(
      `INSERT INTO conversations (id, organization_id, site_id, visitor_id, status, type, locale,
         assigned_agent_id, started_at, last_message_at, closed_at, closed_by_user_id,
         created_at, updated_at)
       SELECT ${ids.c} + g, $1, $2, ${ids.v} + 1 + (g - 1) % ${visitors}, s, 'visitor', 'en',
         CASE WHEN s <> 'waiting' THEN $3::bigint END, t, t + ${span},
         CASE WHEN s = 'closed' THEN t + ${span} END, CASE WHEN s = 'closed' THEN $3::bigint END,
         t, t + ${span}
       FROM generate_series(1, ${n}) g,
         LATERAL (SELECT ${status} AS s, ${time('g')} AS t) x`,
      [p.org, p.site, p.owner],
    );

    // Message m (0-based) is in block b of INTERLEAVE conversations (the last block may be
    // smaller: w); inside it, conversation `conv` (0-based) and its `seq`-th message.
    const per = messagesPerConversation;
    await client.query(
      `INSERT INTO messages (id, organization_id, conversation_id, sender_type, sender_id, body,
         type, created_at)
       SELECT ${ids.m} + m + 1, $1, ${ids.c} + 1 + conv,
         CASE WHEN seq % 2 = 0 THEN 'visitor' ELSE 'agent' END,
         CASE WHEN seq % 2 = 1 THEN $2::bigint END,
         ($3::text[])[1 + (seq + conv) % ${BODIES.length}], 'text',
         ${time('(conv + 1)')} + seq * interval '30 seconds'
       FROM generate_series(0, ${n * per - 1}::bigint) m,
         LATERAL (SELECT m / ${per * INTERLEAVE} AS b, m % ${per * INTERLEAVE} AS r) a,
         LATERAL (SELECT least(${INTERLEAVE}, ${n} - b * ${INTERLEAVE}) AS w) bw,
         LATERAL (SELECT b * ${INTERLEAVE} + r % w AS conv, r / w AS seq) c`,
      [p.org, p.owner, BODIES],
    );

    // One ticket per 10 conversations; numbered TKT-<year>-<n> per year as the service does.
    await client.query(
      `WITH t AS (
         SELECT g, ${ids.c} + g * 10 AS conversation_id, ${time('(g * 10)')} AS created_at
         FROM generate_series(1, ${Math.floor(n / 10)}) g)
       INSERT INTO tickets (organization_id, site_id, visitor_id, conversation_id, ticket_number,
         subject, description, status, priority, source, customer_name, customer_email,
         assigned_agent_id, created_at, updated_at)
       SELECT $1, $2, c.visitor_id, t.conversation_id,
         'TKT-' || extract(year FROM t.created_at AT TIME ZONE 'UTC') || '-' ||
           lpad((row_number() OVER (PARTITION BY extract(year FROM t.created_at AT TIME ZONE 'UTC')
             ORDER BY t.g))::text, 6, '0'),
         'Cannot download invoice ' || t.g, 'The download button on the billing page does nothing.',
         (ARRAY['open', 'open', 'open', 'pending', 'in_progress', 'resolved', 'resolved',
           'closed', 'closed', 'closed'])[1 + t.g % 10],
         (ARRAY['low', 'normal', 'normal', 'high', 'urgent'])[1 + t.g % 5],
         (ARRAY['widget', 'api', 'dashboard'])[1 + t.g % 3],
         'Visitor ' || t.g, 'visitor' || t.g || '@example.com',
         CASE WHEN t.g % 2 = 0 THEN $3::bigint END, t.created_at, t.created_at
       FROM t JOIN conversations c ON c.id = t.conversation_id`,
      [p.org, p.site, p.owner],
    );
    await client.query(
      `INSERT INTO ticket_sequences (organization_id, year, last_value)
       SELECT organization_id, split_part(ticket_number, '-', 2)::int, max(split_part(ticket_number, '-', 3)::int)
       FROM tickets WHERE organization_id = $1 GROUP BY 1, 2
       ON CONFLICT (organization_id, year) DO UPDATE SET last_value = EXCLUDED.last_value`,
      [p.org],
    );

    for (const table of ['visitors', 'conversations', 'messages', 'tickets']) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
      );
      // What autovacuum would do soon after such a load: statistics and the visibility map
      // (which lets counts read only the index).
      await client.query(`VACUUM ANALYZE ${table}`);
    }
    // The trigger-kept counters took one update per seeded row.
    for (const table of ['conversation_totals', 'ticket_totals']) {
      await client.query(`VACUUM ANALYZE ${table}`);
    }

    const conversationIds = [];
    const openConversationIds = [];
    for (let g = 1; g <= n; g += 1) {
      conversationIds.push(ids.c + g);
      if (g > n - visitors && g % 20 < 4) openConversationIds.push(ids.c + g);
    }
    return { conversationIds, openConversationIds, visitors, tickets: Math.floor(n / 10) };
  } finally {
    await client.end();
  }
}
