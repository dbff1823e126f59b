import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { sql } from '../../src/database/sql';
import { createTestDatabase, dropTestDatabase } from '../utils/database';

/**
 * Issue 32, point 4: the places that reach past the framework for speed, each pinned to the
 * framework behaviour it relies on, so an upgrade that changes it fails here instead of silently
 * taking the slow path or answering differently. Why each is worth it is beside its code and in
 * bench/README.md. The Nest ones run in their own process on the compiled code
 * (`test/utils/framework-pins.cjs`): jest cannot load Nest's ES modules on Node 20.
 */
describe('framework overrides stay wired to the framework', () => {
  describe('sql(): statements outside a transaction go to the pg pool, not a QueryRunner', () => {
    let url: string;
    let dataSource: DataSource;

    beforeAll(async () => {
      url = await createTestDatabase();
      dataSource = new DataSource({ type: 'postgres', url });
      await dataSource.initialize();
    });

    afterAll(async () => {
      await dataSource?.destroy();
      if (url) await dropTestDatabase(url);
    });

    it("finds TypeORM's pool where it reaches for it (driver.master)", () => {
      expect((dataSource.driver as unknown as { master: unknown }).master).toBeInstanceOf(Pool);
    });

    it('answers from the pool without a QueryRunner, for the DataSource and its manager', async () => {
      const runners = jest.spyOn(dataSource, 'createQueryRunner');
      try {
        expect(await sql(dataSource, 'SELECT $1::int AS one', [1])).toEqual([{ one: 1 }]);
        expect(await sql(dataSource.manager, 'SELECT 2 AS two')).toEqual([{ two: 2 }]);
        expect(runners).not.toHaveBeenCalled();
        // In a transaction the statement stays on the transaction's own connection.
        const inside = await dataSource.transaction((manager) =>
          sql<{ pid: number }>(manager, 'SELECT pg_backend_pid() AS pid'),
        );
        expect(inside).toHaveLength(1);
        expect(runners).toHaveBeenCalledTimes(1);
      } finally {
        runners.mockRestore();
      }
    });
  });

  it('Nest hands route results to JsonExpressAdapter.reply after ResponseShapeGuard, and gateway handlers to LeanIoAdapter', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(__dirname, '..', 'utils', 'framework-pins.cjs')],
      { timeout: 60_000 },
    );
    const result = JSON.parse(stdout.trim()) as Record<string, Record<string, unknown>>;
    expect(result.http).toEqual({
      // One reply() per request: the envelope is written there, at once, with its length.
      replies_for_one_request: 1,
      status: 200,
      content_type: 'application/json; charset=utf-8',
      content_length_matches: true,
      body: {
        status: true,
        message: 'Pinned.',
        code: '200',
        datetime: expect.any(String),
        // The guard ran before the handler and left the route's shape on the request.
        data: { shape: { raw: false, message: 'Pinned.' } },
      },
      raw: { openapi: '3.0.0' },
    });
    expect(result.sockets).toEqual({
      binds: 1,
      emitted: { n: 2 },
      acknowledged: { n: 42 },
    });
  });
});
