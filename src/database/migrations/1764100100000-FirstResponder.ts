import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reports credit the member who sent a conversation's first reply (issue 26), not whoever holds
 * it at the end: kept beside first_response_at, filled from the messages for earlier chats.
 */
export class FirstResponder1764100100000 implements MigrationInterface {
  name = 'FirstResponder1764100100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE conversations
         ADD COLUMN first_response_by bigint REFERENCES users (id) ON DELETE SET NULL`,
    );
    await queryRunner.query(`
      UPDATE conversations c SET first_response_by = m.sender_id
      FROM (SELECT DISTINCT ON (conversation_id) conversation_id, sender_id FROM messages
            WHERE sender_type = 'agent' ORDER BY conversation_id, created_at, id) m
      WHERE m.conversation_id = c.id AND c.first_response_at IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE conversations DROP COLUMN first_response_by`);
  }
}
