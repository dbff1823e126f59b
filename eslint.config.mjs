import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import safeql from '@ts-safeql/eslint-plugin/config';

/**
 * Typed SQL (issue 32, docs/decisions.md "Issue 32: typed SQL"): every statement written with the
 * `query<Row>` tag (src/database/sql.ts) is prepared on a database migrated to the current schema
 * and its row type compared with `Row`; one written with `handTyped<Row>` is prepared the same way,
 * its row type left as written. `npm run check` starts one (scripts/with-schema-database.mjs)
 * and names it in SQL_CHECK_DATABASE_URL; a bare `eslint .` without it skips this rule.
 */
/** Dependencies the server loads on first use (see the rule below). */
const LAZY_MODULES = [
  '@mozilla/readability',
  '@touch4it/ical-timezones',
  'email-reply-parser',
  'ical-generator',
  'imapflow',
  'linkedom',
  'mailparser',
  'nodemailer',
  'openid-client',
  'otplib',
  'robots-parser',
  'smtp-server',
  'turndown',
];
const SQL_CHECK_DATABASE_URL = process.env.SQL_CHECK_DATABASE_URL;
const typedSql = SQL_CHECK_DATABASE_URL
  ? [
      {
        files: ['src/**/*.ts'],
        ignores: ['src/**/*.spec.ts'],
        ...safeql.configs.connections({
          databaseUrl: SQL_CHECK_DATABASE_URL,
          // `handTyped`: the text is checked, the row type is the one written (src/database/sql.ts).
          targets: [{ tag: 'query' }, { tag: 'handTyped', skipTypeAnnotations: true }],
          // What node-postgres really hands back, where it differs from SafeQL's defaults.
          overrides: {
            types: { json: 'unknown', jsonb: 'unknown', bytea: 'Buffer' },
            // A CHECK-listed text column read as its union, a jsonb column as its shape: the
            // type's name, declared as a plain alias or interface (docs/decisions.md, issue 32).
            columns: {
              'answer_log.outcome': 'AnswerOutcome',
              'appointments.status': 'AppointmentStatus',
              'attachments.uploader_type': 'UploaderType',
              'audit_log.actor_type': 'AuditActorType',
              'content_imports.status': 'ImportStatus',
              'conversations.status': 'ConversationStatus',
              'data_lookup_settings.driver': 'Driver',
              'inbound_mails.door': 'InboundDoor',
              'inbound_mails.status': 'InboundStatus',
              'invitations.role': 'Role',
              'kb_articles.status': 'ArticleStatus',
              'login_tokens.purpose': 'LoginTokenPurpose',
              'logins.origin': 'LoginOrigin',
              'mail_log.status': 'MailStatus',
              'mail_tokens.purpose': 'MailTokenPurpose',
              'messages.sender_type': 'SenderType',
              'organizations.plan': 'Plan',
              'platform_operator_log.actor_type': 'OperatorActorType',
              'sso_settings.default_role': 'SsoDefaultRole',
              'ticket_activity.actor_type': 'TicketActorType',
              'ticket_activity.kind': 'TicketActivityKind',
              'ticket_comments.author_type': 'CommentAuthorType',
              'tickets.priority': 'TicketPriority',
              'tickets.source': 'TicketSource',
              'tickets.status': 'TicketStatus',
              'users.role': 'Role',
              'users.status': 'AgentStatus',
              'visitor_account_logins.method': 'LoginMethod',
              'webhook_deliveries.status': 'DeliveryStatus',
              'api_keys.abilities': 'Ability[]',
              // jsonb
              'audit_log.changes': 'AuditChanges',
              'content_imports.options': 'ImportOptions',
              'data_lookup_settings.account': 'AccountSettings',
              'data_lookup_settings.rules': 'LookupRule[]',
              'macros.actions': 'MacroAction[]',
              'outbox_events.payload': 'OutboxPayload',
              'sites.widget_settings': 'WidgetSettings',
              'visitors.custom_fields': 'CustomFields',
            },
          },
        }),
      },
    ]
  : [];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'coverage/**',
      'eslint.config.mjs',
      'jest.config.js',
      'scripts/**',
      // Plain Node ESM run with `node`, outside the TypeScript project (see bench/README.md).
      'bench/**/*.mjs',
      // The test OpenID provider: plain Node ESM run as a child process (oidc-provider is ESM-only).
      'test/utils/oidc-provider-server.mjs',
      // Runs ESLint's own API in a child process for test/utils/eslint.ts (plain Node ESM).
      'test/utils/eslint-runner.mjs',
      // Tiny Nest apps on the compiled overrides, run as a child process (framework-overrides).
      'test/utils/framework-pins.cjs',
      // The jest reporter for `.ci/run`'s slowest-suites table: plain CommonJS loaded by jest.
      'test/utils/suite-times-reporter.cjs',
      // Generated from openapi/openapi.json (`npm run web:types`), checked by `npm run check`.
      'web/shared/api/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...typedSql,
  {
    // One owner of the dashboard's query cache (issue 32, point 3): every query key is
    // `keys.<resource>.<key>` from web/dashboard/src/api/keys.ts, never a literal array, a local
    // constant or a second registry, so a mutation or a socket event reaches the entries it means.
    files: ['web/dashboard/src/**/*.{ts,tsx}'],
    ignores: ['web/dashboard/src/api/keys.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...queryKeyRules()],
    },
  },
  // Issue 33 (idle memory): what only some installations use is loaded on first use with
  // `lazyModule` (src/common/lazy-module.ts), never by a static import at start-up. And issue 32,
  // point 7: a feature's `*Row` types (its tables' rows) are its own; another feature imports
  // what the feature exports for it (a record and its mapper, or a service method's answer).
  ...restrictedImports(),
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts', 'web/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);

/**
 * The `no-restricted-imports` blocks of the server's files: the lazy modules everywhere under src/,
 * and, for a file under src/modules/<feature>/ at each depth, a `*Row` named from a relative path
 * that leaves its feature (`../other/...` beside the feature's module, `../../other/...` one
 * folder down, ...). Specs may still reach into another feature's rows.
 */
function restrictedImports() {
  const lazy = LAZY_MODULES.map((name) => ({
    name,
    allowTypeImports: true,
    message: `Load ${name} on first use: lazyModule(() => require('${name}') as typeof import('${name}')) (src/common/lazy-module.ts).`,
  }));
  const rule = (patterns) => ({
    '@typescript-eslint/no-restricted-imports': ['error', { paths: lazy, patterns }],
  });
  const ignores = ['src/**/*.spec.ts'];
  const depths = [1, 2, 3];
  const inFeature = (depth) => `src/modules/*/${'*/'.repeat(depth - 1)}*.ts`;
  return [
    {
      files: ['src/**/*.ts'],
      ignores: [...ignores, ...depths.map(inFeature)],
      rules: rule([]),
    },
    ...depths.map((depth) => ({
      files: [inFeature(depth)],
      ignores,
      rules: rule([
        {
          regex: `^(\\.\\./){${depth}}[^./]`,
          importNamePattern: 'Row$',
          message:
            "Another feature's row type: import what that feature exports for others instead (a record and its mapper, or its service's answer; issue 32, point 7).",
        },
      ]),
    })),
  ];
}

/**
 * `no-restricted-syntax` selectors for a query key that is not `keys.<resource>.<key>` (or a
 * call of one): as a `queryKey` property, or as the key argument of a QueryClient method.
 */
function queryKeyRules() {
  const message =
    'Query keys come from `keys` (web/dashboard/src/api/keys.ts): `keys.<resource>.<key>`.';
  const notFromKeys = (at) => [
    `:not([${at}.type='MemberExpression'], [${at}.type='CallExpression'])`,
    `[${at}.type='MemberExpression']:not([${at}.object.object.name='keys'])`,
    `[${at}.type='CallExpression']:not([${at}.callee.object.object.name='keys'])`,
  ];
  const keyArgument =
    'CallExpression[callee.property.name=/^(getQueryData|setQueryData|ensureQueryData|getQueryState|prefetchQuery|fetchQuery)$/]';
  return [
    ...notFromKeys('value').map((test) => ({
      selector: `Property[key.name='queryKey']${test}`,
      message,
    })),
    ...notFromKeys('arguments.0').map((test) => ({ selector: `${keyArgument}${test}`, message })),
  ];
}
