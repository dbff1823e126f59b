import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql } from '../../database/sql';

export interface LoginFailures {
  key: string;
  failures: number;
  last_failed_at: Date;
}

/**
 * Failed agent logins by key (an address's hash or a client address), before any organization is
 * known. A count is forgotten `forgetMs` after its last failure.
 */
@Injectable()
export class LoginFailuresRepository {
  constructor(private readonly dataSource: DataSource) {}

  recent(keys: string[], forgetMs: number): Promise<LoginFailures[]> {
    return sql(
      this.dataSource,
      query<LoginFailures>`SELECT key, failures, last_failed_at FROM login_failures
       WHERE key = ANY($1::text[]) AND last_failed_at > now() - $2 * interval '1 millisecond'`,
      [keys, forgetMs],
    );
  }

  async record(keys: string[], forgetMs: number): Promise<void> {
    await sql(
      this.dataSource,
      query`INSERT INTO login_failures AS f (key, failures, last_failed_at)
       SELECT key, 1, now() FROM unnest($1::text[]) AS key
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN f.last_failed_at <= now() - $2 * interval '1 millisecond'
                         THEN 1 ELSE f.failures + 1 END,
         last_failed_at = now()`,
      [keys, forgetMs],
    );
  }
}
