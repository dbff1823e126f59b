import { describeSmokes, SMOKE_SHARES } from '../utils/bench-smoke';

/**
 * Issue 39, point 6: the benchmarks in smoke mode (test/utils/bench-smoke.ts) that drive clients
 * (Chromium, sockets, the answer bot, the crawler) or grow the data; bench-smoke-servers runs the
 * others and checks that the two suites together run every script.
 */
describeSmokes('Benchmarks in smoke mode: clients and growth (issue 39)', SMOKE_SHARES.clients);
