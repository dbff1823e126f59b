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

/** The restricted-import problems of `file`'s text with `line` put first. */
async function restrictedImports(file: string, line: string): Promise<LintMessage[]> {
  const text = `${line}\n${readFileSync(path.join(ROOT, file), 'utf8')}`;
  // Without a database for the SQL check: that rule is skipped, the rest of the config runs.
  const [result] = await lintWithProjectConfig({ stdin: { text, file }, sqlCheckDatabase: '' });
  return result.messages.filter((message) => message.ruleId === RULE);
}

describe("Another feature's row types (issue 32, point 7)", () => {
  jest.setTimeout(120_000);

  it("fails on a *Row imported from another feature's module, beside the feature's module", async () => {
    const problems = await restrictedImports(
      'src/modules/conversations/chat-pushes.ts',
      "import type { MessageRow } from '../messages/messages.repository';",
    );
    expect(problems).toEqual([
      expect.objectContaining({
        line: 1,
        message: expect.stringContaining(
          "'MessageRow' import from '../messages/messages.repository' is restricted",
        ),
      }),
    ]);
  });

  it('fails on the same import from a folder inside a feature', async () => {
    const problems = await restrictedImports(
      'src/modules/outbox/events/catalogue.ts',
      "import type { ConversationRow } from '../../conversations/conversations.repository';",
    );
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining("'ConversationRow' import from"),
    ]);
  });

  it("passes a feature's own rows, and another feature's exported record", async () => {
    await expect(
      restrictedImports(
        'src/modules/messages/messages.service.ts',
        "import type { MessageRow as Own } from './messages.repository';",
      ),
    ).resolves.toEqual([]);
    await expect(
      restrictedImports(
        'src/modules/conversations/chat-pushes.ts',
        "import type { MessageRecord as Exported } from '../messages/messages.service';",
      ),
    ).resolves.toEqual([]);
  });
});
