// CPU time (user + system) from /proc, to say where each request's time goes: the server
// process, PostgreSQL (the postmaster and every backend, including those that exited), and the
// load generator (this process). Unaffected by whatever else runs on the machine.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** utime, stime, cutime, cstime and the parent pid of a process, or undefined once it is gone. */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return { ppid: Number(fields[1]), own: utime + stime, children: cutime + cstime };
  } catch {
    return undefined;
  }
}

/** PostgreSQL's CPU so far: the postmaster, its reaped children, and its live children. */
function postgresTicks(postmasterPid) {
  const master = stat(postmasterPid);
  let ticks = master ? master.own + master.children : 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = stat(entry);
    if (child?.ppid === postmasterPid) ticks += child.own;
  }
  return ticks;
}

export function cpuMeter(serverPid, postmasterPid) {
  const read = () => {
    const usage = process.cpuUsage();
    return {
      server: (stat(serverPid)?.own ?? 0) * TICK_MS,
      postgres: postgresTicks(postmasterPid) * TICK_MS,
      load: (usage.user + usage.system) / 1000,
    };
  };
  const start = read();
  return {
    /** CPU milliseconds per request since the meter started. */
    perRequest(requests) {
      const end = read();
      const per = (key) => Math.round(((end[key] - start[key]) / requests) * 1000) / 1000;
      return { server: per('server'), postgres: per('postgres'), load: per('load') };
    },
  };
}

export function postmasterPid(dataDir) {
  return Number(readFileSync(`${dataDir}/pg/postmaster.pid`, 'utf8').split('\n')[0]);
}
