// A jest reporter that appends each test file's time to SUITE_TIMES_FILE (one JSON line a file:
// project, path, seconds, passed), when that variable is set. `.ci/run` prints the slowest files
// of the whole run from it at the end, so a suite that got slower is seen the day it lands.
const { appendFileSync } = require('node:fs');
const path = require('node:path');

class SuiteTimesReporter {
  onTestResult(test, result) {
    const file = process.env.SUITE_TIMES_FILE;
    if (!file) return;
    const line = {
      project: test.context.config.displayName?.name ?? '',
      path: path.relative(test.context.config.rootDir, result.testFilePath),
      seconds: (result.perfStats.end - result.perfStats.start) / 1000,
      passed: result.numFailingTests === 0 && !result.testExecError,
      node: process.version,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}

module.exports = SuiteTimesReporter;
