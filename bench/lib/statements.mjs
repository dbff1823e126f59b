// pg_stat_statements over one database (the server must have been started with
// `startDatabase({ statements: true })`): reset before a measurement, then the statements per
// request (or per message) after it, most frequent first, with the rows they returned or changed.
import pg from 'pg';

export async function statementCounter(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    reset: () => client.query('SELECT pg_stat_statements_reset()'),
    async perRequest(requests) {
      const { rows } = await client.query(
        `SELECT calls, rows, total_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND query NOT LIKE '%pg_stat_statements%'
         ORDER BY calls DESC`,
      );
      const per = (value) => Math.round((Number(value) / requests) * 100) / 100;
      return {
        total: per(rows.reduce((sum, row) => sum + Number(row.calls), 0)),
        exec_ms: per(rows.reduce((sum, row) => sum + Number(row.total_exec_time), 0)),
        top: rows
          .map((row) => ({
            per_request: per(row.calls),
            exec_ms: per(row.total_exec_time),
            rows: per(row.rows),
            query: row.query,
          }))
          .filter((row) => row.per_request >= 0.01),
      };
    },
    close: () => client.end(),
  };
}
