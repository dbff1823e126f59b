import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Appointments by email: each status change counts a revision, the SEQUENCE of the appointment's
 * calendar invite (a calendar takes the invite with the higher one).
 */
export class AppointmentInvites1764100000000 implements MigrationInterface {
  name = 'AppointmentInvites1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE appointments ADD COLUMN revision integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE appointments DROP COLUMN revision`);
  }
}
