/**
 * Platform administration: `npm run cli -- <command> [arguments]`.
 *
 *   org:create --name <organization> --email <owner email> [--owner-name <name>] [--password <pw>] [--json]
 *   org:plan <organization_id> <free|pro|business>
 *   org:subscription <organization_id> <ISO date|none>
 *   secrets:rotate      re-seals every stored secret under SECRETS_KEY (see README, "Secrets")
 *   admin:grant <email>   makes the existing login of that address a platform administrator (by
 *                         its id: the login must exist, a later owner of the address gains nothing)
 *   admin:revoke <email>  takes it back (PLATFORM_ADMIN_EMAILS is not changed by this)
 *
 * It uses DATABASE_URL, or the embedded database in DATA_DIR (the running app's server when the
 * app is up, otherwise one started for the command and stopped after it).
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ABILITIES } from '../common/auth/auth.types';
import { SecretBoxService } from '../common/crypto/secret-box.service';
import { randomBase62 } from '../common/crypto/secrets';
import { AppError } from '../common/errors/app-error';
import { loadEnvironment } from '../config/load-environment';
import type { DatabaseRuntime } from '../database/database-runtime';
import { runningEmbeddedPostgres, startEmbeddedPostgres } from '../database/embedded-postgres';
import { runMigrations } from '../database/migrate';
import { AgentsService } from '../modules/agents/agents.service';
import { ApiKeysService } from '../modules/api-keys/api-keys.service';
import { OrganizationsService } from '../modules/organizations/organizations.service';
import { PlatformAdminsService } from '../modules/platform/platform-admins.service';
import { PLANS, type Plan } from '../modules/organizations/plans';
import { SitesService } from '../modules/sites/sites.service';
import { CliModule } from './cli.module';

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

function requireId(value: string | undefined): string {
  if (!value || !/^[1-9]\d{0,18}$/.test(value))
    throw new UsageError('organization_id must be a positive integer');
  return value;
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command || command === '--help') {
    process.stdout.write(
      'commands:\n  org:create --name <organization> --email <owner email> [--owner-name <name>] [--password <pw>] [--json]\n' +
        '  org:plan <organization_id> <free|pro|business>\n  org:subscription <organization_id> <ISO date|none>\n' +
        '  secrets:rotate\n  admin:grant <email>\n  admin:revoke <email>\n',
    );
    return;
  }
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = loadEnvironment();

  let stopEmbedded: (() => Promise<void>) | undefined;
  let database: DatabaseRuntime;
  if (env.DATABASE_URL) {
    database = { url: env.DATABASE_URL, mode: 'external' };
  } else {
    const running = await runningEmbeddedPostgres(env.DATA_DIR);
    if (running) {
      database = { url: running.url, mode: 'embedded' };
    } else {
      const embedded = await startEmbeddedPostgres(env.DATA_DIR);
      stopEmbedded = () => embedded.stop();
      database = { url: embedded.url, mode: 'embedded' };
    }
  }
  await runMigrations(database.url, { queueSchema: !env.REDIS_URL });
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(database), {
    logger: ['error'],
  });
  try {
    await run(app.get(OrganizationsService), app, command, args);
  } finally {
    await app.close();
    await stopEmbedded?.();
  }
}

async function run(
  organizations: OrganizationsService,
  app: { get<T>(type: new (...args: never[]) => T): T },
  command: string,
  args: string[],
): Promise<void> {
  switch (command) {
    case 'org:plan': {
      const [id, plan] = args;
      if (!PLANS.includes(plan as Plan))
        throw new UsageError(`plan must be one of: ${PLANS.join(', ')}`);
      const organization = await organizations.setPlan(requireId(id), plan as Plan);
      process.stdout.write(
        `organization ${organization.id} (${organization.name}) is now on the ${organization.plan} plan\n`,
      );
      return;
    }
    case 'org:subscription': {
      const [id, value] = args;
      let endsAt: Date | null = null;
      if (value !== 'none') {
        endsAt = value ? new Date(value) : new Date(NaN);
        if (Number.isNaN(endsAt.getTime()))
          throw new UsageError(
            'give an ISO 8601 date (2026-12-31 or 2026-12-31T23:59:59Z) or none',
          );
      }
      const organization = await organizations.setSubscriptionEnd(requireId(id), endsAt);
      process.stdout.write(
        `organization ${organization.id} (${organization.name}): subscription ends ${
          organization.subscriptionEndsAt
            ? new Date(organization.subscriptionEndsAt).toISOString()
            : 'never'
        }\n`,
      );
      return;
    }
    case 'org:create': {
      const name = option(args, 'name');
      const email = option(args, 'email');
      if (!name || !email) throw new UsageError('org:create needs --name and --email');
      if (!/^[^\s@]+@[^\s@]+$/.test(email))
        throw new UsageError('--email must be an email address');
      const password = option(args, 'password') ?? randomBase62(20);
      if (password.length < 8) throw new UsageError('--password must be at least 8 characters');
      const ownerName = option(args, 'owner-name') ?? email.split('@')[0];
      const dataSource = app.get(DataSource);
      // An address that already has a login (a member elsewhere) keeps its own password.
      const existing = await app.get(AgentsService).findLogin(email);
      const { organization, owner, site } = await dataSource.transaction(async (manager) => {
        const organization = await organizations.create(manager, name);
        const owner = await app
          .get(AgentsService)
          .create(
            manager,
            organization.id,
            { name: ownerName, email, password, role: 'owner' },
            { origin: 'cli' },
          );
        const site = await app.get(SitesService).create(manager, organization.id, { name });
        return { organization, owner, site };
      });
      const { plainText } = await app.get(ApiKeysService).create(organization.id, owner.id, {
        name: 'Created by org:create',
        abilities: [...ABILITIES],
      });
      const result = {
        organization: {
          id: Number(organization.id),
          name: organization.name,
          plan: organization.plan,
        },
        owner: { id: Number(owner.id), email: owner.email, password: existing ? null : password },
        site: { id: Number(site.id), widget_key: site.widgetKey },
        api_key: plainText,
      };
      if (args.includes('--json')) {
        process.stdout.write(`${JSON.stringify(result)}\n`);
      } else {
        process.stdout.write(
          [
            `organization ${result.organization.id}: ${name} (plan ${organization.plan})`,
            existing
              ? `owner login:  ${email} (an existing account: its own password)`
              : `owner login:  ${email} / ${password}`,
            `site ${result.site.id}: widget_key ${site.widgetKey}`,
            `API key (every ability; shown once): ${plainText}`,
            '',
          ].join('\n'),
        );
      }
      return;
    }
    case 'admin:grant':
    case 'admin:revoke': {
      const [email] = args;
      if (!email || !/^[^\s@]+@[^\s@]+$/.test(email))
        throw new UsageError(`${command} needs the login's email address`);
      const admins = app.get(PlatformAdminsService);
      const change = await (command === 'admin:grant' ? admins.grant(email) : admins.revoke(email));
      // A grant waiting for an address would go to whoever registers it first.
      if (!change)
        throw new Error(
          `no login has the address ${email.toLowerCase()}: its person signs up (or joins a team) first, then run ${command} again`,
        );
      const who = `${change.email} (login ${change.loginId})`;
      if (command === 'admin:grant') {
        process.stdout.write(
          `${who} ${change.changed ? 'is now' : 'was already'} a platform administrator\n`,
        );
        if (!change.confirmedByLink)
          process.stdout.write(
            'note: no mailed link ever confirmed this address: make sure the login is the person you mean\n',
          );
      } else {
        process.stdout.write(
          `${who} ${change.changed ? 'is no longer' : 'was not'} a platform administrator (by grant)\n`,
        );
      }
      return;
    }
    case 'secrets:rotate': {
      const count = await app.get(SecretBoxService).rotate();
      process.stdout.write(`re-sealed ${count} stored secret(s) under the current key\n`);
      return;
    }
    default:
      throw new UsageError(`unknown command ${command} (see --help)`);
  }
}

main().catch((error: unknown) => {
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof AppError) {
    message =
      error.code === 'not_found'
        ? 'organization not found'
        : [message, ...Object.values(error.errors ?? {}).flat()].join(' ');
  }
  process.stderr.write(`${error instanceof UsageError ? 'usage: ' : ''}${message}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
