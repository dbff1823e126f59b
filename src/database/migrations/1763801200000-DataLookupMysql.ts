import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A site's data lookup may read a MySQL or MariaDB database as well as a PostgreSQL one. */
export class DataLookupMysql1763801200000 implements MigrationInterface {
  name = 'DataLookupMysql1763801200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE data_lookup_settings
        DROP CONSTRAINT data_lookup_settings_driver_check,
        ADD CONSTRAINT data_lookup_settings_driver_check CHECK (driver IN ('postgres', 'mysql'))`);
  }

  /** Settings of MySQL databases cannot stay: they are removed (data lookup stops for them). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM data_lookup_settings WHERE driver <> 'postgres'`);
    await queryRunner.query(`
      ALTER TABLE data_lookup_settings
        DROP CONSTRAINT data_lookup_settings_driver_check,
        ADD CONSTRAINT data_lookup_settings_driver_check CHECK (driver IN ('postgres'))`);
  }
}
