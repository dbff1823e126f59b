// EXPLAIN (ANALYZE, BUFFERS) of the service's list statements, with the parameters the service
// sends (so PostgreSQL plans them as it does for the service: custom plans, NULL filters folded).
import pg from 'pg';
import * as q from './queries.mjs';

const PAGE = { page: 1, perPage: 50, offset: 0 };

export async function explainLists(databaseUrl, org, conversationId) {
  const statements = {
    'conversations: page': q.conversationsPage(org, {}, PAGE).rows,
    'conversations: count': q.conversationsPage(org, {}, PAGE).count,
    'messages: conversation': q.findConversation(org, conversationId),
    'messages: page': q.messagesPage(org, conversationId, PAGE).rows,
    'messages: count': q.messagesPage(org, conversationId, PAGE).count,
    'tickets?status=open: page': q.ticketsPage(org, { status: 'open' }, PAGE).rows,
    'tickets?status=open: count': q.ticketsPage(org, { status: 'open' }, PAGE).count,
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const plans = {};
    for (const [name, { text, values }] of Object.entries(statements)) {
      let lines = [];
      // The third run, on a warm cache, is the one kept.
      for (let run = 0; run < 3; run += 1) {
        const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
        lines = result.rows.map((row) => row['QUERY PLAN']);
      }
      plans[name] = {
        execution_ms: Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1]),
        access: lines
          .filter((line) => /Scan/.test(line) && !/Index Searches/.test(line))
          .map((line) => line.replace(/^\s*(->\s*)?/, '').replace(/\s+\(cost=.*$/, ''))
          .join('; '),
        plan: lines,
      };
    }
    return plans;
  } finally {
    await client.end();
  }
}
