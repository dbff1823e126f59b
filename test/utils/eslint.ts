import { execFile } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './test-env';

export interface LintMessage {
  ruleId: string | null;
  message: string;
  line: number;
}

export interface LintResult {
  /** Relative to the repository's root. */
  file: string;
  messages: LintMessage[];
}

/**
 * Runs the project's ESLint with its own config, as `npm run check` does, on each of `jobs` in one
 * process (test/utils/eslint-runner.mjs: the TypeScript program is built once for all of them),
 * and answers their results in order. A job is a file linted as it stands, or a `text` linted as
 * if it stood at `file` (relative to the repository's root). `sqlCheckDatabase` names the database
 * the SQL rule checks against; empty, the rule is skipped.
 */
export function lintWithProjectConfig(options: {
  jobs: { file: string; text?: string }[];
  sqlCheckDatabase: string;
}): Promise<LintResult[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, 'test', 'utils', 'eslint-runner.mjs')],
      {
        cwd: ROOT,
        env: { ...process.env, SQL_CHECK_DATABASE_URL: options.sqlCheckDatabase },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${error.message}\n${stderr}`));
        const results = JSON.parse(stdout) as LintResult[];
        resolve(results.map((result) => ({ ...result, file: path.normalize(result.file) })));
      },
    );
    child.stdin?.end(JSON.stringify(options.jobs));
  });
}
