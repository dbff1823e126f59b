// npm run bench:mail — email both ways (issue 27), each beside a raw baseline in the same run:
// - outgoing: BENCH_MAIL_OUT (3000) mails queued through the service (`POST
//   /api/agent/mail-log/test`: rendered, sealed, logged, queued) by an instance without workers,
//   then sent by an instance's workers to a local SMTP sink, from the first mail received to the
//   last; baseline: nodemailer with the service's pool sending the same number of mails of the
//   same size straight to the same sink. Target: ≥ 200 mails/s and ≥ 0.7 of the baseline. Then,
//   for information, the same number end to end: the API route and the sending on one instance.
// - incoming: BENCH_MAIL_IN (1000) raw RFC 822 mails posted to `POST /api/inbound/email` for an
//   email inbox (each opens a ticket: stored, parsed, threaded, filed), from the first post to
//   the last ticket written; baseline: mailparser alone parsing the same mails. Target: ≥ 100/s.
// - reply latency: BENCH_MAIL_REPLIES (200) visitor replies sent by a real SMTP client
//   (nodemailer) to the built-in listener, addressed to the conversation's reply+<token>, one
//   every 50 ms: the time from the end of the SMTP transaction to the message reaching the
//   agent's socket. Target: p99 ≤ 1 s.
// BENCH_REDIS=1 runs the queues on a private redis-server; BENCH_SKIP_BUILD=1 skips the build;
// BENCH_SMOKE=1 sends a handful of each (bench/lib/smoke.mjs).
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { log, ratio, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting } from './lib/smoke.mjs';
import { connect } from './lib/sockets.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round, sleep } from './lib/stats.mjs';

const OUT = setting('BENCH_MAIL_OUT', 3000, 5);
const IN = setting('BENCH_MAIL_IN', 1000, 5);
const REPLIES = setting('BENCH_MAIL_REPLIES', 200, 3);
const REDIS = process.env.BENCH_REDIS === '1';
const CONCURRENCY = 16;
// The service's default pool (SMTP_POOL_SIZE), used by the baseline too.
const SMTP_POOL_SIZE = 8;
const INBOUND_TOKEN = 'bench-inbound-token-0123456789abcdef';
const WAIT_LIMIT_MS = 300_000;
// BENCH_PROFILE=<dir>: the service writes a V8 CPU profile there when it stops.
const PROFILE_DIR = process.env.BENCH_PROFILE;

const started = Date.now();
const machine = stack.machine();
stack.build();

/** A local SMTP server that accepts everything and counts what it received, by recipient. */
async function startSink() {
  const received = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          at: Date.now(),
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function until(condition, what, limitMs = WAIT_LIMIT_MS) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`);
    await sleep(20);
  }
}

/** Runs `task(i)` for i < count, `concurrency` at a time. */
async function inParallel(count, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next;
      next += 1;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The environment without the inbound SMTP listener (one port, one instance). */
function withoutListener(env) {
  const { INBOUND_SMTP_PORT: _port, INBOUND_SMTP_HOST: _host, ...rest } = env;
  return rest;
}

async function json(response) {
  const body = await response.json();
  if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
  return body;
}

const result = await withCleanup(async (track) => {
  const db = await stack.startDatabase();
  track(() => db.stop());
  const url = await stack.createDatabase(db.adminUrl, 'bench_mail');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  track(() => client.end());
  const org = stack.createOrganization(url);
  const redis = REDIS ? await stack.startRedis() : undefined;
  if (redis) track(() => redis.stop());
  const sink = await startSink();
  track(() => sink.close());
  const port = await stack.freePort();
  const smtpPort = await stack.freePort();
  const env = {
    SMTP_URL: sink.url,
    MAIL_REPLY_DOMAIN: 'reply.bench.example',
    INBOUND_EMAIL_TOKEN: INBOUND_TOKEN,
    INBOUND_SMTP_PORT: String(smtpPort),
    INBOUND_SMTP_HOST: '127.0.0.1',
    INBOUND_SMTP_RATE_PER_MINUTE: String(stack.RATE_LIMIT_PER_MINUTE),
    CONVERSATION_EMAIL_DELAY_SECONDS: '1',
    ...(redis ? { REDIS_URL: redis.url } : {}),
  };
  const publicUrl = `http://127.0.0.1:${port}`;
  const login = async (serviceUrl) => {
    const { token } = await json(
      await fetch(`${serviceUrl}/api/agent/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: org.owner.email, password: org.owner.password }),
      }),
    );
    return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  };
  const queueTestMails = async (serviceUrl, headers) =>
    inParallel(OUT, CONCURRENCY, async () => {
      await json(
        await fetch(`${serviceUrl}/api/agent/mail-log/test`, {
          method: 'POST',
          headers,
          body: '{}',
        }),
      );
    });

  // Sending: OUT mails already queued (by an instance that runs no workers, as an API-only
  // instance would), sent by an instance's workers; from the first mail the sink receives to
  // the last. This is the path nodemailer's baseline takes (queue → render → SMTP), without the
  // cost of producing the mails, which in production come from events spread over time.
  log(`outgoing: ${OUT} mails queued, then sent by the workers`);
  const producerPort = await stack.freePort();
  const producer = await stack.startService(url, `http://127.0.0.1:${producerPort}`, producerPort, {
    ...withoutListener(env),
    WORKERS_ENABLED: 'false',
  });
  track(() => producer.stop());
  await queueTestMails(producer.url, await login(producer.url));
  await producer.stop();
  const service = await stack.startService(
    url,
    publicUrl,
    port,
    env,
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
  track(() => service.stop());
  await until(() => sink.received.length >= OUT, 'queued mails');
  const sending = {
    mails: OUT,
    seconds: (sink.received[OUT - 1].at - sink.received[0].at) / 1000,
  };
  sending.per_second = Math.round((OUT - 1) / sending.seconds);
  const agent = await login(service.url);

  // Outgoing end to end: the API route queues each mail and the same instance sends it.
  log(`outgoing: ${OUT} mails through the API and sent`);
  const firstOwn = sink.received.length;
  const outStart = Date.now();
  await queueTestMails(service.url, agent);
  const queuedAt = Date.now();
  await until(() => sink.received.length >= firstOwn + OUT, 'outgoing mails');
  const outEnd = sink.received[firstOwn + OUT - 1].at;
  const sample = sink.received[0].raw;
  const outgoing = {
    mails: OUT,
    seconds: (outEnd - outStart) / 1000,
    queued_seconds: (queuedAt - outStart) / 1000,
    per_second: Math.round(OUT / ((outEnd - outStart) / 1000)),
    bytes_each: Buffer.byteLength(sample),
  };
  // The sink has every mail; the workers mark them sent just after: read once none is queued.
  await until(async () => {
    const { rows } = await client.query(
      `SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
         count(*) FILTER (WHERE status <> 'sent')::int AS not_sent FROM mail_log`,
    );
    outgoing.not_sent = rows[0].not_sent;
    return rows[0].queued === 0;
  }, 'mails marked sent');

  // Outgoing baseline: nodemailer straight to the sink with the service's pool.
  log(`outgoing baseline: ${OUT} mails by nodemailer`);
  const parsedSample = await simpleParser(sample);
  const transport = nodemailer.createTransport(sink.url, {
    pool: true,
    maxConnections: SMTP_POOL_SIZE,
  });
  const baseCount = sink.received.length;
  const baseStart = Date.now();
  await inParallel(OUT, CONCURRENCY, async (i) => {
    await transport.sendMail({
      from: 'Bench <no-reply@bench.example>',
      to: 'baseline@bench.example',
      subject: `${parsedSample.subject} ${i}`,
      text: parsedSample.text,
      html: parsedSample.html,
    });
  });
  await until(() => sink.received.length >= baseCount + OUT, 'baseline mails');
  const baseSeconds = (sink.received.at(-1).at - baseStart) / 1000;
  transport.close();
  const outgoingBaseline = {
    mails: OUT,
    seconds: baseSeconds,
    per_second: Math.round(OUT / baseSeconds),
  };

  // Incoming: new mails to an inbox, each a ticket.
  const inbox = (
    await json(
      await fetch(`${service.url}/api/agent/email-inboxes`, {
        method: 'POST',
        headers: agent,
        body: JSON.stringify({
          name: 'Bench',
          address: 'support@bench.example',
          acknowledge: false,
        }),
      }),
    )
  ).data;
  const raws = Array.from({ length: IN }, (_, i) =>
    [
      `From: Customer ${i} <customer-${i}@bench.example>`,
      `To: ${inbox.forwarding_address}`,
      `Subject: Order ${i} has not arrived`,
      `Message-ID: <bench-in-${i}-${started}@bench.example>`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      `Hello, my order ${i} was due last week and has not arrived. Can you check?`,
      '',
      'Thanks,',
      `Customer ${i}`,
      '',
    ].join('\r\n'),
  );
  const ticketsBefore = Number((await client.query(`SELECT count(*) AS n FROM tickets`)).rows[0].n);
  log(`incoming: ${IN} mails to the HTTP door`);
  const inStart = Date.now();
  await inParallel(IN, CONCURRENCY, async (i) => {
    const response = await fetch(`${service.url}/api/inbound/email`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_TOKEN}`, 'content-type': 'message/rfc822' },
      body: raws[i],
    });
    if (!response.ok) throw new Error(`inbound ${response.status}: ${await response.text()}`);
  });
  const acceptedAt = Date.now();
  let tickets = 0;
  await until(async () => {
    tickets = Number((await client.query(`SELECT count(*) AS n FROM tickets`)).rows[0].n);
    return tickets - ticketsBefore >= IN;
  }, 'incoming tickets');
  const inEnd = Date.now();
  const incoming = {
    mails: IN,
    accepted_seconds: (acceptedAt - inStart) / 1000,
    seconds: (inEnd - inStart) / 1000,
    per_second: Math.round(IN / ((inEnd - inStart) / 1000)),
  };

  log(`incoming baseline: mailparser on ${IN} mails`);
  const parseStart = Date.now();
  await inParallel(IN, CONCURRENCY, (i) => simpleParser(raws[i]));
  const parseSeconds = (Date.now() - parseStart) / 1000;
  const incomingBaseline = {
    mails: IN,
    seconds: parseSeconds,
    per_second: Math.round(IN / parseSeconds),
  };

  // Reply latency: a visitor with an address, an agent's reply mailed, the visitor answering.
  const session = await json(
    await fetch(`${service.url}/api/widget/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ widget_key: org.site.widget_key }),
    }),
  );
  const visitor = {
    authorization: `Bearer ${session.session_token}`,
    'content-type': 'application/json',
  };
  await json(
    await fetch(`${service.url}/api/widget/profile`, {
      method: 'POST',
      headers: visitor,
      body: JSON.stringify({ name: 'Ada', email: 'ada@bench.example' }),
    }),
  );
  await json(
    await fetch(`${service.url}/api/widget/messages`, {
      method: 'POST',
      headers: visitor,
      body: JSON.stringify({ body: 'Is anyone there?' }),
    }),
  );
  await json(
    await fetch(`${service.url}/api/agent/conversations/${session.conversation_id}/messages`, {
      method: 'POST',
      headers: agent,
      body: JSON.stringify({ body: 'Yes! How can I help?' }),
    }),
  );
  await until(
    () => sink.received.some((mail) => mail.to.includes('ada@bench.example')),
    'the conversation mail',
  );
  const mailed = await simpleParser(
    sink.received.find((mail) => mail.to.includes('ada@bench.example')).raw,
  );
  const replyTo = mailed.replyTo.value[0].address;
  const socket = await connect(service.url, '/agent', agent.authorization.slice('Bearer '.length));
  track(async () => socket.close());
  const arrivals = new Map();
  socket.on('message.created', (message) => {
    const marker = /reply-(\d+)/.exec(message.body ?? '')?.[1];
    if (marker !== undefined && !arrivals.has(marker)) arrivals.set(marker, performance.now());
  });
  const smtp = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 2,
  });
  log(`reply latency: ${REPLIES} replies over SMTP, one every 50 ms`);
  const sentAt = new Map();
  const sends = [];
  for (let i = 0; i < REPLIES; i += 1) {
    sends.push(
      smtp
        .sendMail({
          from: 'Ada <ada@bench.example>',
          to: replyTo,
          subject: `Re: ${mailed.subject}`,
          inReplyTo: mailed.messageId,
          references: [mailed.messageId],
          text: `Thanks, reply-${i} here.`,
        })
        .then(() => sentAt.set(String(i), performance.now())),
    );
    await sleep(50);
  }
  await Promise.all(sends);
  await until(() => arrivals.size >= REPLIES, 'replies on the socket', 60_000).catch(
    () => undefined,
  );
  smtp.close();
  const delays = [...sentAt]
    .filter(([marker]) => arrivals.has(marker))
    .map(([marker, at]) => arrivals.get(marker) - at)
    .sort((a, b) => a - b);
  const latency = {
    replies: REPLIES,
    arrived: delays.length,
    p50_ms: round(percentile(delays, 50)),
    p90_ms: round(percentile(delays, 90)),
    p99_ms: round(percentile(delays, 99)),
    max_ms: round(delays.at(-1)),
  };
  return { sending, outgoing, outgoingBaseline, incoming, incomingBaseline, latency };
});

const { sending, outgoing, outgoingBaseline, incoming, incomingBaseline, latency } = result;
const json_ = {
  machine,
  queues: REDIS ? 'redis' : 'postgresql',
  seconds: Math.round((Date.now() - started) / 1000),
  ...result,
  targets: {
    outgoing_per_second: {
      target: 200,
      measured: sending.per_second,
      met: sending.per_second >= 200,
    },
    outgoing_of_baseline: {
      target: 0.7,
      measured: ratio(sending.per_second, outgoingBaseline.per_second),
      met: ratio(sending.per_second, outgoingBaseline.per_second) >= 0.7,
    },
    incoming_per_second: {
      target: 100,
      measured: incoming.per_second,
      met: incoming.per_second >= 100,
    },
    reply_p99_ms: { target: 1000, measured: latency.p99_ms, met: latency.p99_ms <= 1000 },
  },
};
// Mails the service did not send, and replies that never reached the agent, are failures.
const failures = [
  ...(outgoing.not_sent > 0 ? [`${outgoing.not_sent} mails not sent (mail_log)`] : []),
  ...(latency.arrived < latency.replies
    ? [`${latency.replies - latency.arrived} replies never reached the agent's socket`]
    : []),
];
const markdown = [
  `# bench:mail (${json_.queues} queues, ${machine.cpus} CPUs)`,
  '',
  table(
    ['', 'mails', 'seconds', 'per second', 'baseline per second', 'of baseline'],
    [
      [
        'outgoing: queued mails sent (queue → render → SMTP sink)',
        sending.mails,
        round(sending.seconds, 2),
        sending.per_second,
        outgoingBaseline.per_second,
        ratio(sending.per_second, outgoingBaseline.per_second),
      ],
      [
        'outgoing end to end (API route → queue → SMTP sink)',
        outgoing.mails,
        round(outgoing.seconds, 2),
        outgoing.per_second,
        outgoingBaseline.per_second,
        ratio(outgoing.per_second, outgoingBaseline.per_second),
      ],
      [
        'incoming (HTTP door → stored → parsed → ticket)',
        incoming.mails,
        round(incoming.seconds, 2),
        incoming.per_second,
        incomingBaseline.per_second,
        ratio(incoming.per_second, incomingBaseline.per_second),
      ],
    ],
  ),
  '',
  table(
    ['reply by SMTP → agent socket', 'replies', 'arrived', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
    [
      [
        '',
        latency.replies,
        latency.arrived,
        latency.p50_ms,
        latency.p90_ms,
        latency.p99_ms,
        latency.max_ms,
      ],
    ],
  ),
  '',
  table(
    ['target', 'measured', 'met'],
    Object.entries(json_.targets).map(([name, t]) => [
      `${name} (${t.target})`,
      t.measured,
      t.met ? 'yes' : 'NO',
    ]),
  ),
  ...failures.map((failure) => `\n- FAILED: ${failure}`),
].join('\n');
writeResults(REDIS ? 'mail-redis' : 'mail', json_, markdown);
if (failures.length > 0) process.exitCode = 1;
