import path from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { OutboxEvent } from '../modules/outbox/outbox-event.entity';

/** Every entity of the application; features add theirs here. */
export const ENTITIES = [OutboxEvent];

const MIGRATIONS_GLOB = path.join(__dirname, 'migrations', '*.js');

/**
 * One description of the database for the app, the migration runner and the CLI, so they can
 * never disagree. `synchronize` stays off: the schema changes only through reviewed migrations.
 */
export function dataSourceOptions(
  url: string,
  extra: Partial<DataSourceOptions> = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: 20, connectionTimeoutMillis: 5000, application_name: 'support-chat' },
    ...extra,
  } as DataSourceOptions;
}
