import path from 'node:path';
import type { DataSourceOptions } from 'typeorm';

const MIGRATIONS_GLOB = path.join(__dirname, 'migrations', '*.js');

/**
 * One description of the database for the app, the migration runner and the CLI, so they can
 * never disagree. `synchronize` stays off: the schema changes only through reviewed migrations.
 * No entities: repositories write their SQL (docs/decisions.md, "Repositories write SQL
 * themselves"), so nothing reads ORM metadata.
 */
export function dataSourceOptions(
  url: string,
  extra: Partial<DataSourceOptions> = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: 20, connectionTimeoutMillis: 5000, application_name: 'support-chat' },
    ...extra,
  } as DataSourceOptions;
}
