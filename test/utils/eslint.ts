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
 * Runs the project's ESLint with its own config, as `npm run check` does, and answers its JSON
 * report. `files` are linted as they are; or `stdin` is linted as if it stood at `stdinFile`.
 * `sqlCheckDatabase` names the database the SQL rule checks against; empty, the rule is skipped.
 */
export function lintWithProjectConfig(options: {
  files?: string[];
  stdin?: { text: string; file: string };
  sqlCheckDatabase: string;
}): Promise<LintResult[]> {
  const args = options.stdin
    ? ['--stdin', '--stdin-filename', options.stdin.file]
    : (options.files ?? []);
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '-f', 'json', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, SQL_CHECK_DATABASE_URL: options.sqlCheckDatabase },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        // ESLint exits with 1 when it found problems; anything else is a failure of the run.
        if (error && error.code !== 1) return reject(new Error(`${error.message}\n${stderr}`));
        const results = JSON.parse(stdout) as { filePath: string; messages: LintMessage[] }[];
        resolve(
          results.map((result) => ({
            file: path.relative(ROOT, result.filePath),
            messages: result.messages,
          })),
        );
      },
    );
    if (options.stdin) child.stdin?.end(options.stdin.text);
  });
}
