import { benchScripts, describeSmokes, SMOKE_SHARES, SMOKES } from '../utils/bench-smoke';

/**
 * Issue 39, point 6: the benchmarks in smoke mode (test/utils/bench-smoke.ts), those whose load
 * is HTTP against the service beside a baseline, mail or webhooks; bench-smoke-clients runs the
 * others, so that the two share CI's workers.
 */
describe('Every benchmark has a smoke run (issue 39)', () => {
  it('runs every script of bench/ but the baselines, in one of the two suites', () => {
    const shared = [...SMOKE_SHARES.servers, ...SMOKE_SHARES.clients].sort();
    expect(shared.map((name) => `${name}.mjs`)).toEqual(benchScripts().sort());
    expect(shared).toEqual(SMOKES.map((smoke) => smoke.script).sort());
  });
});

describeSmokes(
  'Benchmarks in smoke mode: servers, mail, webhooks (issue 39)',
  SMOKE_SHARES.servers,
);
