import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Tenant scoping, enforced (docs/decisions.md, "Tenant scoping"): every statement that changes
 * rows names the organization, except in the worker repositories, which only the workers they
 * are named for may import, and in the few places listed here with their reason.
 */
const SRC = path.resolve(__dirname, '..');

/** Worker repositories (by id alone, across organizations) and the only files that may use them. */
const WORKER_REPOSITORIES: Record<string, string[]> = {
  'modules/webhooks/webhook-delivery.repository.ts': [
    'modules/webhooks/webhook-deliverer.ts',
    'modules/webhooks/webhook-dispatcher.ts',
    'modules/webhooks/webhooks.module.ts',
  ],
  'modules/outbox/outbox-worker.repository.ts': [
    'modules/outbox/outbox.relay.ts',
    'modules/outbox/domain-events.processor.ts',
    'modules/outbox/outbox-workers.module.ts',
  ],
  'modules/attachments/attachments-maintenance.repository.ts': [
    'modules/attachments/attachments.service.ts',
    'modules/attachments/attachments.module.ts',
  ],
  'common/crypto/sealed-values-maintenance.repository.ts': [
    'common/crypto/secret-box.service.ts',
    'common/crypto/crypto.module.ts',
  ],
};

/** Writes that need not name the organization, and why. */
const EXEMPT: { file: string; table: string; reason: string }[] = [
  {
    file: 'modules/organizations/organizations.repository.ts',
    table: 'organizations',
    reason: "the organization's own row, by its id",
  },
  {
    file: 'modules/auth/sessions.repository.ts',
    table: 'agent_sessions',
    reason: 'a credential, found by its token hash before any organization is known',
  },
  {
    file: 'modules/auth/sessions.repository.ts',
    table: 'users',
    reason: "the signed-in user's own row (last seen), by the id its session names",
  },
  {
    file: 'modules/idempotency/idempotency.repository.ts',
    table: 'idempotency_keys',
    reason: 'keyed by the API key, a credential of one organization',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({
  name: path.relative(SRC, file).split(path.sep).join('/'),
  text: readFileSync(file, 'utf8'),
}));

/** The statements of a file that change rows: [table, statement]. */
function writes(text: string): [string, string][] {
  const found: [string, string][] = [];
  for (const [, statement] of text.matchAll(/`([^`]*)`/g)) {
    for (const match of statement.matchAll(/\b(?:UPDATE\s+(\w+)\s+SET|DELETE\s+FROM\s+(\w+))/gi)) {
      found.push([match[1] ?? match[2], statement.replace(/\s+/g, ' ').trim()]);
    }
  }
  return found;
}

describe('tenant scoping', () => {
  it('finds the statements it checks', () => {
    const conversations = files.find((file) => file.name.endsWith('conversations.repository.ts'));
    expect(writes(conversations!.text).length).toBeGreaterThan(3);
  });

  it('names the organization in every write outside the worker repositories', () => {
    const unscoped = files
      .filter((file) => !(file.name in WORKER_REPOSITORIES))
      .flatMap((file) =>
        writes(file.text)
          .filter(([, statement]) => !/\borganization_id\b/.test(statement))
          .filter(([table]) => !EXEMPT.some((e) => e.file === file.name && e.table === table))
          .map(([table, statement]) => `${file.name} (${table}): ${statement.slice(0, 120)}`),
      );
    expect(unscoped).toEqual([]);
  });

  it('lets only the workers they are named for use the worker repositories', () => {
    const misuse = Object.entries(WORKER_REPOSITORIES).flatMap(([repository, allowed]) => {
      const module = path.basename(repository, '.ts');
      return files
        .filter((file) => file.name !== repository && !allowed.includes(file.name))
        .filter((file) => new RegExp(`from '[./]*(?:[\\w-]+/)*${module}'`).test(file.text))
        .map((file) => `${file.name} imports ${repository}`);
    });
    expect(misuse).toEqual([]);
  });
});
