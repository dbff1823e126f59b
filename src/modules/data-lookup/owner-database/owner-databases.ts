import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Driver } from '../lookup-settings';
import { MysqlOwnerDatabase } from './mysql-owner-database';
import type { OwnerDatabase } from './owner-database';
import { PostgresOwnerDatabase } from './postgres-owner-database';

/** An owner database of the driver, with a pool of `size` connections (default POOL_SIZE). */
function openDatabase(driver: Driver, url: string, size?: number): OwnerDatabase {
  switch (driver) {
    case 'postgres':
      return new PostgresOwnerDatabase(url, size);
    case 'mysql':
      return new MysqlOwnerDatabase(url, size);
  }
}

/**
 * The open owner databases, one per site. An entry is tied to the sealed URL it was opened with:
 * settings saved with another URL (here or on another instance) close the old pool on next use.
 * Every pool closes when the app stops.
 */
@Injectable()
export class OwnerDatabases implements OnApplicationShutdown {
  private readonly logger = new Logger('data-lookup');
  private readonly open = new Map<string, { sealedUrl: string; database: OwnerDatabase }>();

  /** The site's database for these settings, opened on first use. */
  forSite(siteId: string, driver: Driver, sealedUrl: string, url: () => string): OwnerDatabase {
    const entry = this.open.get(siteId);
    if (entry?.sealedUrl === sealedUrl && entry.database.dialect.driver === driver) {
      return entry.database;
    }
    if (entry) this.closeQuietly(entry.database);
    const database = openDatabase(driver, url());
    this.open.set(siteId, { sealedUrl, database });
    return database;
  }

  /** A database not saved yet (settings being checked): one connection, closed after `work`. */
  async once<T>(
    driver: Driver,
    url: string,
    work: (database: OwnerDatabase) => Promise<T>,
  ): Promise<T> {
    const database = openDatabase(driver, url, 1);
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

  private closeQuietly(database: OwnerDatabase): void {
    database
      .close()
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'closing an owner database failed', err: String(error) }),
      );
  }
}
