import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Tenant scoping, enforced (docs/decisions.md, "Tenant scoping"): every statement that changes
 * rows names the organization, except in the worker repositories, which only the workers they
 * are named for may import, and in the few places listed here with their reason.
 */
const SRC = path.resolve(__dirname, '..');

/**
 * Worker repositories (by id alone, across organizations) and the only files that may use them;
 * the platform console's is one too.
 */
const WORKER_REPOSITORIES: Record<string, string[]> = {
  'modules/webhooks/webhook-delivery.repository.ts': [
    'modules/webhooks/webhook-deliverer.ts',
    'modules/webhooks/webhook-dispatcher.ts',
    'modules/webhooks/webhooks.module.ts',
  ],
  'modules/outbox/outbox-worker.repository.ts': [
    'modules/outbox/outbox.dispatcher.ts',
    'modules/outbox/outbox-workers.module.ts',
  ],
  'modules/attachments/attachments-maintenance.repository.ts': [
    'modules/attachments/attachments.service.ts',
    'modules/attachments/attachments.module.ts',
  ],
  'modules/inbound-mail/inbound-mail-worker.repository.ts': [
    'modules/inbound-mail/inbound-mail.service.ts',
    'modules/inbound-mail/inbound-mail.sweep.ts',
    'modules/inbound-mail/mail-retention.processor.ts',
    'modules/inbound-mail/inbound-mail.module.ts',
  ],
  'common/crypto/sealed-values-maintenance.repository.ts': [
    'common/crypto/secret-box.service.ts',
    'common/crypto/crypto.module.ts',
  ],
  // The platform console reads across organizations by design (its administrators see them
  // all); only the platform module's own services use it, behind @PlatformAdmin() or the CLI.
  'modules/platform/platform.repository.ts': [
    'modules/platform/platform.module.ts',
    'modules/platform/platform.controller.ts',
    'modules/platform/platform.dto.ts',
    'modules/platform/platform-admins.service.ts',
    'modules/platform/platform-organizations.service.ts',
    'modules/platform/platform-queues.service.ts',
    'modules/platform/instance-heartbeat.ts',
  ],
};

/** Writes that need not name the organization, and why. */
const EXEMPT: { file: string; table: string; reason: string }[] = [
  {
    file: 'modules/auth/sso.repository.ts',
    table: 'sso_attempts',
    reason:
      'expired sign-in attempts of every organization are dropped, and a callback takes its own by state',
  },
  {
    file: 'common/rate-limit/rate-limit.store.ts',
    table: 'rate_limit_hits',
    reason:
      'rate-limit counters by their key, which names what is limited (an API key, an address)',
  },
  {
    file: 'modules/privacy/privacy.repository.ts',
    table: 'rate_limit_hits',
    reason:
      "an erased visitor's acknowledgement counter, by its key (which names the organization and the address)",
  },
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
    file: 'modules/agents/agents.repository.ts',
    table: 'logins',
    reason:
      "a person's login (address, password), shared by its memberships in several organizations",
  },
  {
    file: 'modules/auth/login-tokens.repository.ts',
    table: 'login_tokens',
    reason: "a login's mailed single-use links, found by their hash or the login's id",
  },
  ...['logins', 'login_recovery_codes', 'two_factor_challenges'].map((table) => ({
    file: 'modules/auth/two-factor.repository.ts',
    table,
    reason: "a login's second factor, which spans its organizations, by the login's id or a hash",
  })),
  {
    file: 'modules/auth/login-failures.repository.ts',
    table: 'login_failures',
    reason: 'failed logins by address and client address, before any organization is known',
  },
  {
    file: 'modules/audit/audit-log.repository.ts',
    table: 'audit_log',
    reason: 'the retention job deletes the expired rows of every organization',
  },
  {
    file: 'modules/mail/mail.repository.ts',
    table: 'mail_log',
    reason: 'the mail retention job deletes the expired rows of every organization',
  },
  {
    file: 'modules/mail/mail.repository.ts',
    table: 'mail_recipients',
    reason: 'the mail retention job deletes the expired mailed addresses of every organization',
  },
  {
    file: 'modules/idempotency/idempotency.repository.ts',
    table: 'idempotency_keys',
    reason: 'keyed by the API key, a credential of one organization',
  },
];

/**
 * Repository methods (outside the worker repositories) that take no organization, and why: each
 * starts from a credential or a key that belongs to one organization before any is known, or
 * makes the organization itself.
 */
const UNSCOPED_METHODS: Record<string, string> = {
  'sso.repository.ts takeAttempt':
    'the single sign-on callback, before any organization is known: the state is the credential',
  'conversations.repository.ts wakeDue':
    'the snooze sweep wakes the due conversations of every organization (each answers its own)',
  'agents.repository.ts ensureLogin': 'the login of an address, which spans organizations',
  'agents.repository.ts findLoginByEmail': 'logging in: the email is the credential',
  'agents.repository.ts findLogin': "the signed-in login's own row, by the id its session names",
  'agents.repository.ts memberships': "the signed-in login's own memberships (the switcher)",
  'agents.repository.ts markLoginVerified': 'a login, by the id a used mailed link named',
  'agents.repository.ts setPasswordHash':
    "a login's password, by its id (from a session or a link)",
  'agents.repository.ts avatarByToken': 'an avatar address, the capability itself',
  'two-factor.repository.ts state': "the signed-in (or challenged) login's own two-factor state",
  'two-factor.repository.ts setPending': "the signed-in login's own setup",
  'two-factor.repository.ts enable': "the signed-in login's own setup",
  'two-factor.repository.ts disable': "the signed-in login's own two-factor",
  'two-factor.repository.ts useStep': 'the login a challenge or session named',
  'two-factor.repository.ts useRecoveryCode': 'the login a challenge named',
  'two-factor.repository.ts recoveryCodesLeft': "the signed-in login's own codes",
  'two-factor.repository.ts insertChallenge':
    'a login challenge, before any organization is chosen',
  'two-factor.repository.ts lockChallenge': 'a login challenge, found by its hash: the capability',
  'two-factor.repository.ts failChallenge': 'the challenge just found',
  'two-factor.repository.ts finishChallenge': 'the challenge just found',
  'invitations.repository.ts lockByToken': 'an invitation link, found by its hash: the capability',
  'login-tokens.repository.ts insert': "a login's mailed link, by the login's id",
  'login-tokens.repository.ts consume': 'a mailed link, found by its hash: the capability',
  'sessions.repository.ts deleteAllOfLogin': "the signed-in login's own sessions",
  'api-keys.repository.ts findActiveByHash': 'an API key, found by its hash',
  'sites.repository.ts findActiveByWidgetKey': 'a widget key, the public credential of one site',
  'attachments.repository.ts byToken': 'a download link, the capability itself',
  'organizations.repository.ts insert': 'makes the organization',
  'sessions.repository.ts insert': "an agent's session, by the user it is for",
  'sessions.repository.ts findActive': 'a session token, found by its hash',
  'sessions.repository.ts findActiveById': "a socket's session, by the id its handshake named",
  'sessions.repository.ts touch': 'the session just found',
  'sessions.repository.ts delete': "the signed-in user's own session",
  'sessions.repository.ts deleteAll': "the signed-in user's own sessions",
  'login-failures.repository.ts recent': 'failed logins by address, before any organization',
  'login-failures.repository.ts record': 'failed logins by address, before any organization',
  'idempotency.repository.ts claim': 'keyed by the API key, a credential of one organization',
  'idempotency.repository.ts complete': 'keyed by the API key',
  'idempotency.repository.ts release': 'keyed by the API key',
  'idempotency.repository.ts purgeExpired': 'housekeeping by age, reads nothing out',
  'privacy.repository.ts expiredConversations':
    'the retention job reads ids of expired conversations; each erasure then names its organization',
  'audit-log.repository.ts deleteOlderThan':
    'the retention job: housekeeping by age, reads nothing out',
  'account-login.repository.ts lockVisitorCodes':
    'an advisory lock on the visitor id, reads no row',
  'email-inboxes.repository.ts findForMail':
    'an incoming mail names its inbox by forwarding token or support address, before any organization',
  'email-inboxes.repository.ts imapMailboxes':
    'the IMAP pollers share out the inboxes that read a mailbox; each lease and status write names the organization',
  'mail.repository.ts findToken': 'a reply or unsubscribe token, found by its hash: the capability',
  'mail.repository.ts deleteOlderThan':
    'the mail retention job deletes the expired log rows of every organization',
  'mail.repository.ts staleQueued':
    'the re-queue sweep reads ids of stuck mails only; each job then names its organization',
  'visitors.repository.ts uidExists':
    "whether a UID names a visitor anywhere (another site's UID is refused, DESIGN), nothing read out",
};

/** Each repository method's name and parameter list, outside the worker repositories. */
function repositoryMethods(): { key: string; parameters: string }[] {
  return files
    .filter((file) => file.name.endsWith('repository.ts') && !(file.name in WORKER_REPOSITORIES))
    .flatMap((file) =>
      [...file.text.matchAll(/^ {2}(?:async )?(\w+)\(([^)]*)\)/gm)]
        .filter(([, name]) => name !== 'constructor')
        .map(([, name, parameters]) => ({
          key: `${path.basename(file.name)} ${name}`,
          parameters,
        })),
    );
}

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

  it('gives every repository method the organization, but the lookups listed with their reason', () => {
    const methods = repositoryMethods();
    expect(methods.length).toBeGreaterThan(100);
    const unscoped = methods
      .filter(
        ({ parameters }) => !/organization|\bscope\b|\bwidget\s*:|\bvisitor\s*:/i.test(parameters),
      )
      .map(({ key }) => key);
    expect(unscoped.filter((key) => !(key in UNSCOPED_METHODS))).toEqual([]);
    // A listed exception that now takes the organization leaves the list.
    expect(Object.keys(UNSCOPED_METHODS).filter((key) => !unscoped.includes(key))).toEqual([]);
  });
});
