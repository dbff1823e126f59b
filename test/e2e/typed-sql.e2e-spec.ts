import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../utils/database';
import { type LintResult, lintWithProjectConfig } from '../utils/eslint';
import { ROOT } from '../utils/test-env';

/**
 * Typed SQL (issue 32): `npm run check` lints with SafeQL against a migrated database
 * (scripts/with-schema-database.mjs). Here the same ESLint, with the project's own config, runs
 * on three repositories against a copy of the migrated schema and against a scratch copy in which
 * a column is renamed and another changes type: the first passes, the second fails naming the
 * statements. The inbox's labels are read by a `handTyped` statement (its json row type written
 * by hand): its text is checked all the same.
 */
const FILES = [
  'src/modules/labels/labels.repository.ts',
  'src/modules/canned-responses/canned-responses.repository.ts',
  'src/modules/conversations/inbox.repository.ts',
];

function lint(databaseUrl: string): Promise<LintResult[]> {
  return lintWithProjectConfig({
    jobs: FILES.map((file) => ({ file })),
    sqlCheckDatabase: databaseUrl,
  });
}

const byFile = (a: { file: string }, b: { file: string }) => a.file.localeCompare(b.file);

async function execute(url: string, statements: string[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('Typed SQL checked against the schema (e2e)', () => {
  jest.setTimeout(240_000);
  const databases: string[] = [];

  afterAll(async () => {
    for (const url of databases) await dropTestDatabase(url);
  });

  it('passes on the migrated schema and names the statements a renamed or retyped column breaks', async () => {
    const migrated = await createTestDatabase();
    const scratch = await createTestDatabase();
    databases.push(migrated, scratch);
    await execute(scratch, [
      'ALTER TABLE labels RENAME COLUMN color TO colour',
      'ALTER TABLE canned_responses ALTER COLUMN created_at TYPE text USING created_at::text',
    ]);

    const clean = await lint(migrated);
    expect(clean.map(({ file, messages }) => ({ file, messages })).sort(byFile)).toEqual(
      FILES.map((file) => ({ file, messages: [] })).sort(byFile),
    );

    const broken = await lint(scratch);
    const problems = broken.flatMap(({ file, messages }) =>
      messages.map((message) => ({ file, ...message })),
    );
    // Nothing but the SQL rule complains, and it complains in every file.
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((problem) => problem.ruleId === '@ts-safeql/check-sql')).toBe(true);

    // Each at a statement written with the `query` or `handTyped` tag (its first lines).
    for (const problem of problems) {
      const lines = readFileSync(path.join(ROOT, problem.file), 'utf8').split('\n');
      const around = lines.slice(Math.max(0, problem.line - 4), problem.line).join('\n');
      expect(around).toMatch(problem.file === FILES[2] ? /\bhandTyped[<`]/ : /\bquery[<`]/);
    }

    const labels = problems.filter((problem) => problem.file === FILES[0]);
    // Every statement that names labels.color fails, quoting PostgreSQL.
    expect(labels.length).toBeGreaterThanOrEqual(3);
    for (const problem of labels)
      expect(problem.message).toMatch(/^Invalid Query: column \S*\bcolor\b.* does not exist/);

    const cannedResponses = problems.filter((problem) => problem.file === FILES[1]);
    expect(cannedResponses.length).toBeGreaterThanOrEqual(3);
    for (const problem of cannedResponses) {
      expect(problem.message).toContain('Query has incorrect type annotation');
      expect(problem.message).toMatch(/Expected: .*created_at: Date/);
      expect(problem.message).toMatch(/Actual: .*created_at: string/);
    }

    // The inbox's one handTyped statement that names labels.color fails the same way.
    const inbox = problems.filter((problem) => problem.file === FILES[2]);
    expect(inbox).toHaveLength(1);
    expect(inbox[0].message).toMatch(/^Invalid Query: column \S*\bcolor\b.* does not exist/);
  });
});
