import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../../../database/database-runtime';
import { type Driver } from '../lookup-settings';
import { MYSQL, POSTGRES } from '../sql-dialect';
import { type ConnectionTarget, parseConnectionUrl } from './connection-target';
import { type OwnerDatabase, OwnerDatabaseError } from './owner-database';
import { PostgresOwnerDatabase } from './postgres-owner-database';
import {
  ownDatabaseServer,
  parseAllowedTargets,
  resolveOwnServers,
  type TargetPolicy,
} from '../../../common/net/target-policy';

/**
 * An owner database of the driver, with a pool of `size` connections (default POOL_SIZE). A URL
 * the policy refuses by its form gives a database whose every read fails with that refusal.
 */
function openDatabase(
  driver: Driver,
  url: string,
  policy: () => TargetPolicy,
  size?: number,
): OwnerDatabase {
  let target;
  try {
    target = parseConnectionUrl(driver, url);
  } catch (error) {
    if (!(error instanceof OwnerDatabaseError)) throw error;
    return refusedDatabase(error);
  }
  switch (driver) {
    case 'postgres':
      return new PostgresOwnerDatabase(target, policy, size);
    case 'mysql':
      return mysqlDatabase(target, policy, size);
  }
}

/**
 * A MySQL database whose driver (mysql2, about 90 modules) is loaded when the first one opens:
 * most instances never open one, and an idle instance should not carry it (bench/README.md,
 * Idle memory).
 */
function mysqlDatabase(
  target: ConnectionTarget,
  policy: () => TargetPolicy,
  size?: number,
): OwnerDatabase {
  const database = import('./mysql-owner-database.js').then(
    ({ MysqlOwnerDatabase }) => new MysqlOwnerDatabase(target, policy, size),
  );
  return {
    dialect: MYSQL,
    read: (work, options) => database.then((opened) => opened.read(work, options)),
    close: () => database.then((opened) => opened.close()),
  };
}

const refusedDatabase = (error: OwnerDatabaseError): OwnerDatabase => ({
  dialect: POSTGRES,
  read: () => Promise.reject(error),
  close: () => Promise.resolve(),
});

/**
 * The open owner databases, one per site. An entry is tied to the sealed URL it was opened with:
 * settings saved with another URL (here or on another instance) close the old pool on next use.
 * Every pool closes when the app stops.
 */
@Injectable()
export class OwnerDatabases implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('data-lookup');
  private readonly open = new Map<
    string,
    { sealedUrl: string; driver: Driver; database: OwnerDatabase }
  >();
  private readonly policy: TargetPolicy;

  constructor(config: AppConfig, @Inject(DATABASE_RUNTIME) database: DatabaseRuntime) {
    this.policy = {
      allowed: parseAllowedTargets(config.env.DATA_LOOKUP_ALLOWED_HOSTS),
      ownDatabase: [ownDatabaseServer(database.url)],
    };
  }

  /** The addresses of the service's own database server, so a name for it is refused too. */
  async onApplicationBootstrap(): Promise<void> {
    await resolveOwnServers(this.policy, (_host, error) =>
      this.logger.warn({ msg: 'own database host did not resolve', err: String(error) }),
    );
  }

  /** The site's database for these settings, opened on first use. */
  forSite(siteId: string, driver: Driver, sealedUrl: string, url: () => string): OwnerDatabase {
    const entry = this.open.get(siteId);
    if (entry?.sealedUrl === sealedUrl && entry.driver === driver) {
      return entry.database;
    }
    if (entry) this.closeQuietly(entry.database);
    const database = openDatabase(driver, url(), this.currentPolicy);
    this.open.set(siteId, { sealedUrl, driver, database });
    return database;
  }

  /** A database not saved yet (settings being checked): one connection, closed after `work`. */
  async once<T>(
    driver: Driver,
    url: string,
    work: (database: OwnerDatabase) => Promise<T>,
  ): Promise<T> {
    const database = openDatabase(driver, url, this.currentPolicy, 1);
    try {
      return await work(database);
    } finally {
      this.closeQuietly(database);
    }
  }

  /** Closes the site's pool (its settings changed). */
  release(siteId: string): void {
    const entry = this.open.get(siteId);
    if (!entry) return;
    this.open.delete(siteId);
    this.closeQuietly(entry.database);
  }

  async onApplicationShutdown(): Promise<void> {
    const databases = [...this.open.values()].map((entry) => entry.database);
    this.open.clear();
    await Promise.allSettled(databases.map((database) => database.close()));
  }

  private readonly currentPolicy = () => this.policy;

  private closeQuietly(database: OwnerDatabase): void {
    database
      .close()
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'closing an owner database failed', err: String(error) }),
      );
  }
}
