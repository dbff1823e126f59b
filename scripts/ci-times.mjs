// Prints where a `.ci/run` spent its time: each phase (from the `phase seconds` lines of
// CI_PHASES_FILE) and the slowest test files (from the suite-times reporter's SUITE_TIMES_FILE).
// `node scripts/ci-times.mjs <phases-file> <suite-times-file> [count]`
import { existsSync, readFileSync } from 'node:fs';

const [phasesFile, timesFile, count = '15'] = process.argv.slice(2);
const lines = (file) =>
  file && existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
const pad = (text, width) => String(text).padStart(width);

const phases = lines(phasesFile).map((line) => {
  const at = line.lastIndexOf(' ');
  return { name: line.slice(0, at), seconds: Number(line.slice(at + 1)) };
});
const total = phases.reduce((sum, phase) => sum + phase.seconds, 0);
console.log('\n== Where the time went');
for (const phase of phases) console.log(`${pad(phase.seconds, 6)} s  ${phase.name}`);
console.log(`${pad(total, 6)} s  in all (${Math.floor(total / 60)} min ${total % 60} s)`);

const suites = lines(timesFile)
  .map((line) => JSON.parse(line))
  .sort((a, b) => b.seconds - a.seconds);
const busy = suites.reduce((sum, suite) => sum + suite.seconds, 0);
console.log(
  `\n== The ${Math.min(Number(count), suites.length)} slowest of ${suites.length} test files ` +
    `(${Math.round(busy)} s of test files in all, across the workers)`,
);
for (const suite of suites.slice(0, Number(count))) {
  const mark = suite.passed ? '' : '  FAILED';
  console.log(`${pad(suite.seconds.toFixed(1), 6)} s  ${suite.path} (${suite.node})${mark}`);
}
