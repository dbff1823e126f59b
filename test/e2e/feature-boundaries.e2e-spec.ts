import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type LintMessage, lintWithProjectConfig } from '../utils/eslint';
import { ROOT } from '../utils/test-env';

/**
 * Issue 32, point 7: a feature's `*Row` types are its own. The project's ESLint (its own config,
 * as `npm run check` runs it) reads a file of the tree with one import added, as if it stood at
 * that path: a `*Row` from another feature fails, at any depth of the importing file; a `*Row` of
 * the same feature, and what another feature exports for others, pass.
 */
const RULE = '@typescript-eslint/no-restricted-imports';

/** The probes: a file of the tree with one import put first, as if it stood at that path. */
const PROBES = {
  otherFeature: [
    'src/modules/conversations/chat-pushes.ts',
    "import type { MessageRow } from '../messages/messages.repository';",
  ],
  fromInsideFolder: [
    'src/modules/outbox/events/catalogue.ts',
    "import type { ConversationRow } from '../../conversations/conversations.repository';",
  ],
  ownRow: [
    'src/modules/messages/messages.service.ts',
    "import type { MessageRow as Own } from './messages.repository';",
  ],
  exportedRecord: [
    'src/modules/conversations/chat-pushes.ts',
    "import type { MessageRecord as Exported } from '../messages/messages.service';",
  ],
} as const;

describe("Another feature's row types (issue 32, point 7)", () => {
  jest.setTimeout(120_000);
  /** Each probe's restricted-import problems, all linted in one ESLint process. */
  const problemsOf = {} as Record<keyof typeof PROBES, LintMessage[]>;

  beforeAll(async () => {
    const names = Object.keys(PROBES) as (keyof typeof PROBES)[];
    const results = await lintWithProjectConfig({
      jobs: names.map((name) => {
        const [file, line] = PROBES[name];
        return { file, text: `${line}\n${readFileSync(path.join(ROOT, file), 'utf8')}` };
      }),
      // Without a database for the SQL check: that rule is skipped, the rest of the config runs.
      sqlCheckDatabase: '',
    });
    names.forEach((name, index) => {
      problemsOf[name] = results[index].messages.filter((message) => message.ruleId === RULE);
    });
  });

  it("fails on a *Row imported from another feature's module, beside the feature's module", () => {
    expect(problemsOf.otherFeature).toEqual([
      expect.objectContaining({
        line: 1,
        message: expect.stringContaining(
          "'MessageRow' import from '../messages/messages.repository' is restricted",
        ),
      }),
    ]);
  });

  it('fails on the same import from a folder inside a feature', () => {
    expect(problemsOf.fromInsideFolder.map((problem) => problem.message)).toEqual([
      expect.stringContaining("'ConversationRow' import from"),
    ]);
  });

  it("passes a feature's own rows, and another feature's exported record", () => {
    expect(problemsOf.ownRow).toEqual([]);
    expect(problemsOf.exportedRecord).toEqual([]);
  });
});
