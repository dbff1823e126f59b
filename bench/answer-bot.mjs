// npm run bench:bot — the answer bot (issue 30) at 10 000 published articles and 10 000 bot
// replies, without generation: the time from a visitor's message (POST /api/widget/messages) to
// the bot's answer arriving on the visitor's own socket (`message.created`, sender `bot`), the
// whole path as the widget sees it: the outbox, the search, the answer's transaction and the push.
// Each question is asked by a new visitor (the bot answers at most `max_answers` times per chat),
// one at a time and then ten at a time (BENCH_BOT_CONCURRENCY, "1,10"), BENCH_BOT_QUESTIONS
// (300) per level, the first BENCH_BOT_WARMUP (20) not counted. The questions are worded differently from the stored ones.
// BENCH_ARTICLES (10000), BENCH_BOT_REPLIES (10000); BENCH_SKIP_BUILD=1 skips the build;
// BENCH_SMOKE=1 asks a few questions at both levels (bench/lib/smoke.mjs).
import pg from 'pg';
import { seedArticles } from './lib/kb-seed.mjs';
import { registerOwner, request } from './lib/http.mjs';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting } from './lib/smoke.mjs';
import { connect } from './lib/sockets.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round } from './lib/stats.mjs';

const ARTICLES = setting('BENCH_ARTICLES', 10_000, 30);
const REPLIES = setting('BENCH_BOT_REPLIES', 10_000, 20);
const QUESTIONS = setting('BENCH_BOT_QUESTIONS', 300, 4);
const WARMUP = setting('BENCH_BOT_WARMUP', 20, 1);
const LEVELS = setting('BENCH_BOT_CONCURRENCY', '1,10', '1,2').split(',').map(Number);
const P99_TARGET_MS = 300;

const TOPICS = ['password', 'invoice', 'shipping', 'refund', 'account', 'delivery', 'payment'];
const ACTIONS = ['reset', 'change', 'download', 'cancel', 'track', 'update', 'close'];
const SYLLABLES = ['ka', 'lor', 'vin', 'dex', 'mu', 'sol', 'tra', 'pez', 'qui', 'ron'];
/** A product name of its own for each stored question (`kalorvin`, …): no two alike. */
const product = (i) =>
  [0, 1, 2, 3]
    .map((d) => SYLLABLES[Math.floor(i / 10 ** d) % 10])
    .join('')
    .replace(/^./, (c) => c.toUpperCase());
const action = (i) => ACTIONS[i % ACTIONS.length];
const topic = (i) => TOPICS[Math.floor(i / ACTIONS.length) % TOPICS.length];
/** A stored question, and the way a visitor asks it instead. */
const stored = (i) => `How do I ${action(i)} the ${topic(i)} of my ${product(i)}?`;
const asked = (i) => `hi, i need to ${action(i)} ${topic(i)} for ${product(i).toLowerCase()}, how?`;

async function seedReplies(url, org, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let start = 0; start < count; start += 1000) {
      const n = Math.min(1000, count - start);
      await client.query(
        `INSERT INTO bot_replies (organization_id, site_id, question, answer)
         SELECT $1, $2, q, a FROM unnest($3::text[], $4::text[]) AS t(q, a)`,
        [
          org.organization.id,
          org.site.id,
          Array.from({ length: n }, (_, k) => stored(start + k)),
          Array.from(
            { length: n },
            (_, k) => `Answer ${start + k}: open Settings, choose the item and follow the steps.`,
          ),
        ],
      );
    }
    await client.query('ANALYZE bot_replies');
    await client.query('ANALYZE kb_articles');
  } finally {
    await client.end();
  }
}

/** One new visitor asks question `i`; resolves with the milliseconds until the bot's answer. */
async function ask(service, widgetKey, i) {
  const session = await request(`${service.url}/api/widget/init`, 'POST', {
    widget_key: widgetKey,
  });
  const socket = await connect(service.url, '/widget', session.session_token);
  try {
    const answered = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`question ${i}: no answer in 10 s`)), 10_000);
      socket.on('message.created', (message) => {
        if (message.sender_type !== 'bot') return;
        clearTimeout(timer);
        resolve(message);
      });
    });
    const started = performance.now();
    await request(
      `${service.url}/api/widget/messages`,
      'POST',
      { body: asked(i) },
      session.session_token,
    );
    const message = await answered;
    const ms = performance.now() - started;
    if (!message.body.startsWith(`Answer ${i}:`)) {
      throw new Error(`question ${i} was answered with another reply: ${message.body}`);
    }
    return ms;
  } finally {
    socket.close();
  }
}

const machine = stack.machine();
stack.build();

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_bot');
  const port = await stack.freePort();
  const service = await stack.startService(url, `http://127.0.0.1:${port}`, port);
  track(() => service.stop());

  const org = await registerOwner(service.url);
  log(`seeding ${ARTICLES} published articles and ${REPLIES} bot replies`);
  await seedArticles(url, org, ARTICLES);
  await seedReplies(url, org, REPLIES);
  await request(
    `${service.url}/api/agent/sites/${org.site.id}/answer-bot`,
    'PUT',
    { enabled: true, min_score: 0.3, handoff_message: null, max_answers: 3 },
    org.token,
  );

  const levels = [];
  let asked = 0;
  for (const concurrency of LEVELS) {
    log(`${QUESTIONS} questions, ${concurrency} visitors at a time`);
    const times = new Array(QUESTIONS);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < QUESTIONS) {
          const i = next++;
          // Spread over the stored questions, another one for every question of the run.
          times[i] = await ask(service, org.site.widget_key, ((asked + i) * 7919) % REPLIES);
        }
      }),
    );
    asked += QUESTIONS;
    const seconds = (performance.now() - started) / 1000;
    const counted = times.slice(WARMUP);
    levels.push({
      concurrency,
      questions: counted.length,
      questions_per_second: round(QUESTIONS / seconds),
      p50_ms: round(percentile(counted, 50)),
      p90_ms: round(percentile(counted, 90)),
      p99_ms: round(percentile(counted, 99)),
      max_ms: round(Math.max(...counted)),
    });
  }
  return { articles: ARTICLES, bot_replies: REPLIES, warmup: WARMUP, levels };
});

const verdict = (level) => (level.p99_ms <= P99_TARGET_MS ? 'met' : 'MISSED');
const markdown = [
  `## Answer bot (issue 30): ${results.articles} published articles, ${results.bot_replies} bot replies, no generation`,
  '',
  table(
    ['visitors at a time', 'questions', 'questions/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
    results.levels.map((level) => [
      level.concurrency,
      level.questions,
      level.questions_per_second,
      level.p50_ms,
      level.p90_ms,
      level.p99_ms,
      level.max_ms,
    ]),
  ),
  '',
  ...results.levels.map(
    (level) =>
      `- ${level.concurrency} at a time: from the visitor's message to the bot's answer on the visitor's socket, p99 ≤ ${P99_TARGET_MS} ms: ${level.p99_ms} ms — ${verdict(level)}`,
  ),
  `- Every answer was checked to be the stored reply of the question asked (worded differently). Each visitor is new: its init, socket and first message (a new conversation, with its own subscribers) load the service beside the bot's work.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model.split(' ').slice(0, 2).join(' ')}, load at start ${machine.load_average_at_start.join(' ')}`,
].join('\n');
writeResults('answer-bot', { machine, ...results }, markdown);
