import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A conversation's tickets (issue 26: a chat turned into a ticket, linked both ways). */
export class TicketFromConversation1764100300000 implements MigrationInterface {
  name = 'TicketFromConversation1764100300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX tickets_conversation_idx ON tickets (organization_id, conversation_id, id DESC)
       WHERE conversation_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX tickets_conversation_idx`);
  }
}
