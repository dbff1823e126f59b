import type { OwnerDatabase } from './owner-database/owner-database';
import { splitTable } from './identifiers';
import type { Catalog } from './settings-check';

/**
 * The columns (and their types) of the given tables and views as the owner database's login sees
 * them in information_schema: a table it may not read is missing, as if it did not exist. An
 * unqualified name is looked up in the login's current schema.
 */
export async function readCatalog(
  database: OwnerDatabase,
  tables: string[],
): Promise<{ catalog: Catalog; serverVersion: string }> {
  const names = tables.map(splitTable);
  return database.read(async (query) => {
    const rows = await query<{ ref: string; column_name: string; data_type: string }>(
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
    const catalog: Catalog = new Map();
    for (const row of rows) {
      const columns = catalog.get(row.ref) ?? new Map<string, string>();
      columns.set(row.column_name, row.data_type);
      catalog.set(row.ref, columns);
    }
    return { catalog, serverVersion: version.version };
  });
}
