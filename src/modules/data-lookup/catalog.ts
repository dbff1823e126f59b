import type { OwnerDatabase, ReadQuery } from './owner-database/owner-database';
import { splitTable } from './identifiers';
import type { Catalog } from './settings-check';

interface CatalogRow {
  ref: string;
  column_name: string;
  data_type: string;
}

/**
 * The columns (and their types) of the given tables and views as the owner database's login sees
 * them in information_schema: a table it may not read is missing, as if it did not exist. An
 * unqualified name is looked up in the login's current schema (MySQL: its current database).
 */
export async function readCatalog(
  database: OwnerDatabase,
  tables: string[],
): Promise<{ catalog: Catalog; serverVersion: string }> {
  const read = database.dialect.driver === 'mysql' ? mysqlColumns : postgresColumns;
  return database.read(async (query) => {
    const { rows, version } = await read(query, tables);
    const catalog: Catalog = new Map();
    for (const row of rows) {
      const columns = catalog.get(row.ref) ?? new Map<string, string>();
      columns.set(row.column_name, row.data_type);
      catalog.set(row.ref, columns);
    }
    return { catalog, serverVersion: version };
  });
}

async function postgresColumns(query: ReadQuery, tables: string[]) {
  const names = tables.map(splitTable);
  const rows = await query<CatalogRow>(
    `SELECT t.ref, c.column_name::text AS column_name, c.data_type::text AS data_type
       FROM unnest($1::text[], $2::text[], $3::text[]) AS t(ref, schema_name, table_name)
       JOIN information_schema.columns c
         ON c.table_schema = coalesce(t.schema_name, current_schema())
        AND c.table_name = t.table_name`,
    [tables, names.map((name) => name.schema ?? null), names.map((name) => name.table)],
  );
  const [version] = await query<{ version: string }>(
    `SELECT current_setting('server_version') AS version`,
  );
  return { rows, version: version.version };
}

/**
 * MySQL's information_schema may compare names ignoring case, and its queries get no arrays: the
 * rows of every named table are read, then matched to the names exactly here.
 */
async function mysqlColumns(query: ReadQuery, tables: string[]) {
  const [session] = await query<{ db: string | null; version: string }>(
    'SELECT DATABASE() AS db, VERSION() AS version',
  );
  const names = tables.map((ref) => ({ ref, ...splitTable(ref) }));
  const found = await query<{ schema_name: string; table_name: string } & CatalogRow>(
    `SELECT c.TABLE_SCHEMA AS schema_name, c.TABLE_NAME AS table_name,
            c.COLUMN_NAME AS column_name, c.DATA_TYPE AS data_type
       FROM information_schema.COLUMNS c
      WHERE ${names.map(() => '(c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ?)').join(' OR ')}`,
    names.flatMap((name) => [name.schema ?? session.db ?? '', name.table]),
  );
  const rows = names.flatMap(({ ref, schema, table }) =>
    found
      .filter((row) => row.schema_name === (schema ?? session.db) && row.table_name === table)
      .map((row) => ({ ref, column_name: row.column_name, data_type: row.data_type })),
  );
  return { rows, version: session.version };
}
