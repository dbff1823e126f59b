// npm run bench:realtime — real time with thousands of open widgets (issue 20): the delay from a
// visitor's message (sent on its `/widget` socket) to every agent socket of its organization
// (`/agent`), and from an agent's reply (`POST /api/agent/conversations/{id}/messages`) to the
// visitor's widget socket; nothing may be lost. Also the memory an idle open widget socket costs
// the server (RSS and heap after a full GC, through the inspector, divided by the sockets).
// Two passes: one instance, then two instances sharing a private redis-server (the Socket.IO Redis
// adapter and the BullMQ queues on it), sockets and requests spread over both.
// BENCH_REALTIME_WIDGETS (2000) widget sockets and BENCH_REALTIME_AGENTS (50) agent sockets over
// BENCH_REALTIME_ORGANIZATIONS (10) organizations (one site each); visitors write
// BENCH_REALTIME_RATE (100) messages a second in total for BENCH_REALTIME_SECONDS (30), agents
// reply BENCH_REALTIME_REPLY_RATE (20) times a second; BENCH_REALTIME_PASSES (single,redis);
// BENCH_SKIP_BUILD=1 skips the build; BENCH_SMOKE=1 runs the single pass small
// (bench/lib/smoke.mjs). BENCH_PROFILE=1 also counts the statements per message
// (pg_stat_statements) and writes each instance's CPU profile of the load to
// bench/results/profiles/; BENCH_PROFILE=nested counts the statements inside functions too;
// BENCH_PROFILE=alloc writes each instance's promotion profile instead (sampled allocations that
// outlive the young generation: what drives the full GCs).
import path from 'node:path';
import { cpuMeter } from './lib/cpu.mjs';
import { request } from './lib/http.mjs';
import { memoryAfterGc, startCpuProfile, startPromotionProfile } from './lib/inspector.mjs';
import { statementCounter } from './lib/statements.mjs';
import { log, table, withCleanup, writeResults } from './lib/report.mjs';
import { setting, settle } from './lib/smoke.mjs';
import { connect } from './lib/sockets.mjs';
import * as stack from './lib/stack.mjs';
import { percentile, round, sleep } from './lib/stats.mjs';

const WIDGETS = setting('BENCH_REALTIME_WIDGETS', 2000, 10);
// In a smoke run, two agents per organization: the owner and a member added and logged in.
const AGENTS = setting('BENCH_REALTIME_AGENTS', 50, 4);
const ORGANIZATIONS = setting('BENCH_REALTIME_ORGANIZATIONS', 10, 2);
const RATE = setting('BENCH_REALTIME_RATE', 100, 20);
const SECONDS = setting('BENCH_REALTIME_SECONDS', 30, 1);
const REPLY_RATE = setting('BENCH_REALTIME_REPLY_RATE', 20, 5);
const PASSES = setting('BENCH_REALTIME_PASSES', 'single,redis', 'single').split(',');
const CONCURRENCY = 20;
const PROFILE = ['1', 'nested'].includes(process.env.BENCH_PROFILE ?? '');
const PROMOTION_PROFILE = process.env.BENCH_PROFILE === 'alloc';
const PROFILES = path.join(stack.ROOT, 'bench', 'results', 'profiles');

const started = Date.now();
const machine = stack.machine();
stack.build();

/** A delay percentile as reported: rounded, null when nothing arrived. */
const delayPercentile = (values, p) => (values.length === 0 ? null : round(percentile(values, p)));
const SLOW_MS = 100;

/**
 * The seconds of the load (by send time) in which pushes took over SLOW_MS, each with how many
 * did and the slowest: whether a p99 comes from a few stalls or from the whole run.
 */
function slowSeconds(sends, start) {
  const seconds = new Map();
  for (const { at, delays } of sends) {
    const slow = delays.filter((delay) => delay > SLOW_MS);
    if (slow.length === 0) continue;
    const second = Math.floor((at - start) / 1000);
    const entry = seconds.get(second) ?? { second, slow: 0, max_ms: 0 };
    entry.slow += slow.length;
    entry.max_ms = round(Math.max(entry.max_ms, ...slow));
    seconds.set(second, entry);
  }
  return [...seconds.values()].sort((a, b) => a.second - b.second);
}

/** Runs `task(i)` for i in 0..count-1, `CONCURRENCY` at a time. */
async function inParallel(count, task) {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
  return results;
}

/** Organizations with one site and `AGENTS / ORGANIZATIONS` members each, all logged in. */
async function createTeams(url) {
  // Organizations side by side (password hashing makes each step slow), members one by one.
  return Promise.all(Array.from({ length: ORGANIZATIONS }, (_, o) => createTeam(url, o)));
}

async function createTeam(url, o) {
  const stamp = `${Date.now()}-${o}`;
  const owner = await request(`${url}/api/agent/auth/register`, 'POST', {
    organization_name: `Shop ${o}`,
    name: `Owner ${o}`,
    email: `owner-${stamp}@bench.example`,
    password: `pw-${stamp}-bench`,
  });
  const tokens = [owner.token];
  for (let a = tokens.length; a < Math.ceil(AGENTS / ORGANIZATIONS); a++) {
    const email = `agent-${a}-${stamp}@bench.example`;
    const password = `pw-${stamp}-agent-${a}`;
    await request(
      `${url}/api/agent/team`,
      'POST',
      { name: `Agent ${a}`, email, role: 'agent', password },
      owner.token,
    );
    // The login limit counts per address: each agent logs in from its own (TRUST_PROXY).
    const from = { 'x-forwarded-for': `10.0.${o}.${a}` };
    const login = await request(
      `${url}/api/agent/auth/login`,
      'POST',
      { email, password },
      undefined,
      from,
    );
    tokens.push(login.token);
  }
  return { widgetKey: owner.site.widget_key, tokens };
}

async function memory(instances) {
  return Promise.all(instances.map((instance) => memoryAfterGc(instance.inspectPort)));
}

/** One pass over `instances` (each `{ url, pid, inspectPort }`) sharing one database. */
async function pass(name, instances, postmaster, databaseUrl) {
  const on = (i) => instances[i % instances.length].url;
  const teams = await createTeams(instances[0].url);

  // Agent sockets, spread over the organizations and the instances.
  const toAgents = new Map(); // body -> { at, expected, delays }
  const agentSockets = [];
  for (let a = 0; a < AGENTS; a++) {
    const team = teams[a % ORGANIZATIONS];
    const token = team.tokens[Math.floor(a / ORGANIZATIONS) % team.tokens.length];
    const socket = await connect(on(a), '/agent', token);
    socket.on('message.created', (message) => {
      const sent = toAgents.get(message.body);
      if (sent && message.sender_type === 'visitor') sent.delays.push(performance.now() - sent.at);
    });
    agentSockets.push(socket);
  }
  const agentsOf = (o) => agentSockets.filter((_, a) => a % ORGANIZATIONS === o).length;

  log(`${WIDGETS} widget sessions (init)`);
  const sessions = await inParallel(WIDGETS, (w) =>
    request(`${on(w)}/api/widget/init`, 'POST', {
      widget_key: teams[w % ORGANIZATIONS].widgetKey,
    }),
  );
  await settle(2000);
  const before = await memory(instances);
  log(`${WIDGETS} widget sockets`);
  const toWidgets = new Map(); // body -> { at, delay }
  const widgetSockets = await inParallel(WIDGETS, async (w) => {
    const socket = await connect(on(w), '/widget', sessions[w].session_token);
    socket.on('message.created', (message) => {
      const sent = toWidgets.get(message.body);
      if (sent && message.sender_type === 'agent' && sent.delay === undefined) {
        sent.delay = performance.now() - sent.at;
      }
    });
    return socket;
  });
  await settle(3000);
  const after = await memory(instances);
  const idle = {
    sockets_per_instance: instances.map(
      (_, i) => widgetSockets.filter((_, w) => w % instances.length === i).length,
    ),
    before,
    after,
    rss_kib_per_socket: round(
      (after.reduce((s, m) => s + m.bytes.rss, 0) - before.reduce((s, m) => s + m.bytes.rss, 0)) /
        1024 /
        WIDGETS,
    ),
    heap_kib_per_socket: round(
      (after.reduce((s, m) => s + m.bytes.heapUsed, 0) -
        before.reduce((s, m) => s + m.bytes.heapUsed, 0)) /
        1024 /
        WIDGETS,
    ),
  };
  log(`idle: ${idle.rss_kib_per_socket} KiB RSS, ${idle.heap_kib_per_socket} KiB heap per socket`);

  // Load: visitors write RATE messages a second (round robin over the widgets), agents reply
  // REPLY_RATE times a second to conversations that exist. Sends are paced on absolute times.
  log(`${RATE * SECONDS} visitor messages at ${RATE}/s, replies at ${REPLY_RATE}/s`);
  const conversations = []; // { w, id }
  const refused = { visitor: 0, reply: 0 };
  const reasons = {}; // why sends were refused: the error code or message, and how often
  const count = (side, error) => {
    refused[side] += 1;
    const reason = `${side}: ${String(error?.message ?? error).slice(0, 120)}`;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  };
  const pending = [];
  const statements = PROFILE ? await statementCounter(databaseUrl) : undefined;
  await statements?.reset();
  const profiler = PROFILE ? startCpuProfile : PROMOTION_PROFILE ? startPromotionProfile : null;
  const profiles = profiler
    ? await Promise.all(
        instances.map((instance, i) =>
          profiler(instance.inspectPort, PROFILES, `realtime-${name}-${i + 1}`),
        ),
      )
    : [];
  const cpu = instances.map((instance) => cpuMeter(instance.pid, postmaster));
  const start = performance.now();
  const total = RATE * SECONDS;
  const replies = REPLY_RATE * SECONDS;
  let sentReplies = 0;
  for (let n = 0, r = 0; n < total || r < replies;) {
    const nextVisitor = n < total ? start + (n * 1000) / RATE : Infinity;
    const nextReply = r < replies ? start + (r * 1000) / REPLY_RATE : Infinity;
    const at = Math.min(nextVisitor, nextReply);
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    if (nextVisitor <= nextReply) {
      const w = n % WIDGETS;
      const body = `rt visitor ${n}`;
      toAgents.set(body, { at: performance.now(), org: w % ORGANIZATIONS, delays: [] });
      const refuse = (error) => {
        count('visitor', error);
        toAgents.delete(body);
      };
      pending.push(
        widgetSockets[w]
          .timeout(30_000)
          .emitWithAck('message', { body })
          .then((answer) => {
            if (!answer?.status) throw new Error(answer?.error_code ?? JSON.stringify(answer));
            if (!conversations.some((c) => c.w === w)) {
              conversations.push({ w, id: answer.data.conversation_id });
            }
          })
          .catch(refuse),
      );
      n += 1;
    } else {
      r += 1;
      if (conversations.length === 0) continue;
      const { w, id } = conversations[r % conversations.length];
      const team = teams[w % ORGANIZATIONS];
      const body = `rt reply ${r}`;
      toWidgets.set(body, { at: performance.now() });
      sentReplies += 1;
      pending.push(
        request(
          `${on(r)}/api/agent/conversations/${id}/messages`,
          'POST',
          { body },
          team.tokens[r % team.tokens.length],
        ).catch((error) => {
          count('reply', error);
          toWidgets.delete(body);
        }),
      );
    }
  }
  const sendSeconds = round((performance.now() - start) / 1000, 2);
  await Promise.all(pending);
  const expectedAgentReceipts = () =>
    [...toAgents.values()].reduce((sum, sent) => sum + agentsOf(sent.org), 0);
  const agentReceipts = () => [...toAgents.values()].reduce((s, sent) => s + sent.delays.length, 0);
  const widgetReceipts = () => [...toWidgets.values()].filter((s) => s.delay !== undefined).length;
  const deadline = Date.now() + 15_000;
  while (
    (agentReceipts() < expectedAgentReceipts() || widgetReceipts() < toWidgets.size) &&
    Date.now() < deadline
  ) {
    await sleep(100);
  }
  const cpuPerMessage = cpu.map((meter) => meter.perRequest(total + sentReplies));
  const profileFiles = await Promise.all(profiles.map((profile) => profile.stop()));
  const statementsPerMessage = await statements?.perRequest(total + sentReplies);
  await statements?.close();
  const toAgentDelays = [...toAgents.values()].flatMap((sent) => sent.delays);
  // Each reply in the shape of a visitor message's sends: its time, and its one delay if it came.
  const replySends = [...toWidgets.values()].map((s) => ({
    at: s.at,
    delays: s.delay === undefined ? [] : [s.delay],
  }));
  const toWidgetDelays = replySends.flatMap((s) => s.delays);
  const result = {
    instances: instances.length,
    widgets: WIDGETS,
    agents: AGENTS,
    organizations: ORGANIZATIONS,
    send_seconds: sendSeconds,
    idle,
    refusals: reasons,
    visitor_to_agent: {
      messages: total,
      refused: refused.visitor,
      expected_receipts: expectedAgentReceipts(),
      received: toAgentDelays.length,
      lost: expectedAgentReceipts() - toAgentDelays.length,
      p50_ms: delayPercentile(toAgentDelays, 50),
      p99_ms: delayPercentile(toAgentDelays, 99),
      max_ms: toAgentDelays.length ? round(Math.max(...toAgentDelays)) : null,
      slow_seconds: slowSeconds(toAgents.values(), start),
    },
    reply_to_widget: {
      replies: sentReplies,
      refused: refused.reply,
      received: toWidgetDelays.length,
      lost: toWidgets.size - toWidgetDelays.length,
      p50_ms: delayPercentile(toWidgetDelays, 50),
      p99_ms: delayPercentile(toWidgetDelays, 99),
      max_ms: toWidgetDelays.length ? round(Math.max(...toWidgetDelays)) : null,
      slow_seconds: slowSeconds(replySends, start),
    },
    cpu_ms_per_message: cpuPerMessage,
    ...(PROFILE
      ? { statements_per_message: statementsPerMessage, cpu_profiles: profileFiles }
      : {}),
    ...(PROMOTION_PROFILE ? { promotion_profiles: profileFiles } : {}),
    rss_after_load_mib: instances.map((instance) => stack.rssMiB(instance.pid)),
  };
  for (const socket of [...widgetSockets, ...agentSockets]) socket.close();
  return result;
}

const results = await withCleanup(async (track) => {
  const db = await stack.startDatabase({
    statements: process.env.BENCH_PROFILE === 'nested' ? 'nested' : PROFILE,
  });
  track(() => db.stop());
  const postmaster = db.postmasterPid;
  const start = async (url, extraEnv = {}) => {
    const port = await stack.freePort();
    const inspectPort = await stack.freePort();
    const server = await stack.startService(url, `http://127.0.0.1:${port}`, port, {
      NODE_OPTIONS: [`--inspect=127.0.0.1:${inspectPort}`, process.env.BENCH_NODE_OPTIONS ?? '']
        .join(' ')
        .trim(),
      // Agents log in with X-Forwarded-For addresses of their own (the login limit is per address).
      TRUST_PROXY: 'loopback',
      ...extraEnv,
    });
    track(() => server.stop());
    return { url: server.url, pid: server.pid, inspectPort, stop: () => server.stop() };
  };
  const passes = {};
  if (PASSES.includes('single')) {
    log('pass: one instance');
    const url = await stack.createDatabase(db.adminUrl, 'bench_realtime');
    const service = await start(url);
    passes.single = await pass('single', [service], postmaster, url);
    await service.stop();
  }
  if (PASSES.includes('redis')) {
    log('pass: two instances on Redis');
    const redis = await stack.startRedis();
    track(() => redis.stop());
    const url = await stack.createDatabase(db.adminUrl, 'bench_realtime_redis');
    const services = [
      await start(url, { REDIS_URL: redis.url }),
      await start(url, { REDIS_URL: redis.url }),
    ];
    passes.redis = await pass('redis', services, postmaster, url);
  }
  return passes;
});

const rows = Object.entries(results).map(([name, r]) => [
  name === 'single' ? 'one instance' : 'two instances, Redis',
  `${r.widgets} / ${r.agents}`,
  `${r.visitor_to_agent.p50_ms} / ${r.visitor_to_agent.p99_ms} / ${r.visitor_to_agent.max_ms}`,
  `${r.visitor_to_agent.lost} of ${r.visitor_to_agent.expected_receipts}`,
  `${r.reply_to_widget.p50_ms} / ${r.reply_to_widget.p99_ms} / ${r.reply_to_widget.max_ms}`,
  `${r.reply_to_widget.lost} of ${r.reply_to_widget.replies}`,
  r.idle.rss_kib_per_socket,
  r.idle.heap_kib_per_socket,
  r.cpu_ms_per_message.map((c) => c.server).join(' + '),
  r.cpu_ms_per_message[0].postgres,
  r.cpu_ms_per_message[0].load,
]);
const markdown = [
  `## bench:realtime — ${new Date(started).toISOString()}`,
  '',
  `- ${WIDGETS} widget sockets and ${AGENTS} agent sockets over ${ORGANIZATIONS} organizations (one site each; every agent socket hears its organization); visitors write ${RATE} messages/s in total for ${SECONDS} s over their \`/widget\` sockets, agents reply ${REPLY_RATE}/s over HTTP.`,
  `- Delays: from just before the emit (or the reply's request) to the push arriving, both clocks in this process; a visitor message counts once per agent socket of its organization.`,
  `- Idle memory: RSS and heap of the service(s) after a full GC (inspector), before and after opening the widget sockets (their sessions were created before), divided by the sockets.`,
  `- Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gib} GiB, Node ${machine.node}; the service(s), PostgreSQL, Redis and this process (every client socket) share the cores (load average at start: ${machine.load_average_at_start.join(', ')}).`,
  '',
  table(
    [
      'pass',
      'widgets / agents',
      'visitor → agents p50 / p99 / max ms',
      'lost',
      'reply → widget p50 / p99 / max ms',
      'lost',
      'KiB RSS per idle socket',
      'KiB heap per idle socket',
      'CPU ms per message: service(s)',
      'PostgreSQL',
      'this process',
    ],
    rows,
  ),
  '',
  ...Object.entries(results).flatMap(([name, r]) =>
    [
      ['visitor → agents', r.visitor_to_agent],
      ['reply → widget', r.reply_to_widget],
    ].map(
      ([label, side]) =>
        `- ${name}, ${label}: pushes over ${SLOW_MS} ms by second of the load (second: how many, slowest ms): ${side.slow_seconds.map((s) => `${s.second}: ${s.slow}, ${s.max_ms}`).join('; ') || 'none'}.`,
    ),
  ),
  ...Object.entries(results).flatMap(([name, r]) => [
    `- ${name}: sends took ${r.send_seconds} s for ${SECONDS} s of schedule; refused: ${r.visitor_to_agent.refused} visitor messages, ${r.reply_to_widget.refused} replies; RSS after the load ${r.rss_after_load_mib.join(' + ')} MiB; idle RSS before/after the sockets ${r.idle.before.map((m) => m.rss_mib).join(' + ')} → ${r.idle.after.map((m) => m.rss_mib).join(' + ')} MiB.`,
  ]),
  ...Object.entries(results).flatMap(([name, r]) =>
    Object.entries(r.refusals).map(([reason, n]) => `- ${name}, refused ${n} times: ${reason}`),
  ),
  ...Object.entries(results).flatMap(([name, r]) =>
    r.statements_per_message
      ? [
          `- ${name}: ${r.statements_per_message.total} statements (${r.statements_per_message.exec_ms} ms of execution) per message — ${r.statements_per_message.top
            .slice(0, 15)
            .map((t) => `${t.per_request} × \`${t.query}\` (${t.exec_ms} ms, ${t.rows} rows)`)
            .join('; ')}; CPU profiles: ${r.cpu_profiles.join(', ')}`,
        ]
      : [],
  ),
  ...Object.entries(results).map(
    ([name, r]) =>
      `- Targets (${name}): p99 ≤ 100 ms — ${Math.max(r.visitor_to_agent.p99_ms, r.reply_to_widget.p99_ms) <= 100 ? 'met' : 'MISSED'}; 0 lost — ${r.visitor_to_agent.lost + r.reply_to_widget.lost === 0 ? 'met' : 'MISSED'}; ≤ 20 KB per idle socket — ${r.idle.rss_kib_per_socket * 1.024 <= 20 ? 'met' : 'MISSED'}`,
  ),
  `- Total run time: ${Math.round((Date.now() - started) / 1000)} s.`,
].join('\n');

writeResults(
  'realtime',
  { machine, started_at: new Date(started).toISOString(), passes: results },
  markdown,
);
// A refused send is not counted as lost (it was never expected to arrive), yet it is a failure
// all the same: the limits are set out of reach, so a refusal means a changed route or payload.
const failed = Object.values(results).some(
  (r) =>
    r.visitor_to_agent.lost +
      r.reply_to_widget.lost +
      r.visitor_to_agent.refused +
      r.reply_to_widget.refused >
    0,
);
if (failed) process.exitCode = 1;
