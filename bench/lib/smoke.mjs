// BENCH_SMOKE=1: every benchmark at its smallest, so a test can run them all in minutes and a
// renamed route or changed payload fails there rather than in the next person's measurement.
// Only the sizes shrink (a few hundred rows, about a second of load, no warm-up, a handful of
// sockets, events and mails): the code paths and the correctness checks are those of a real run.
// The figures mean nothing and are written as smoke results (bench/lib/report.mjs).
import { sleep } from './stats.mjs';

export const SMOKE = process.env.BENCH_SMOKE === '1';

/**
 * A benchmark's setting: the variable `name` when it is set (explicit settings win in smoke mode
 * too), else `smoke` under BENCH_SMOKE=1, else `full`. A number when `full` is one.
 */
export function setting(name, full, smoke = full) {
  const given = process.env[name];
  if (given === undefined || given === '') return SMOKE ? smoke : full;
  return typeof full === 'number' ? Number(given) : given;
}

/**
 * A pause that only the figures need (memory read a while after start-up, scripts fetched lazily
 * after the first paint), never one that waits for something to happen: skipped in smoke mode,
 * where nobody reads the figures.
 */
export const settle = (ms) => sleep(SMOKE ? 0 : ms);
