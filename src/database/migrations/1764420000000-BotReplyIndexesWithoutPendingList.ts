import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bot replies' search indexes without GIN's pending list, as the articles' are: an import
 * writes hundreds of replies at once, and until the next vacuum every answer scanned their
 * unmerged entries (at 10 000 replies the planner then gave up the index: 35 ms a question
 * instead of 6, bench:bot).
 */
export class BotReplyIndexesWithoutPendingList1764420000000 implements MigrationInterface {
  name = 'BotReplyIndexesWithoutPendingList1764420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const index of ['bot_replies_search_idx', 'bot_replies_question_trgm_idx']) {
      await queryRunner.query(`ALTER INDEX ${index} SET (fastupdate = off)`);
    }
    // Merges what is pending now (setting the option leaves the list as it is).
    await queryRunner.query(`SELECT gin_clean_pending_list('bot_replies_search_idx')`);
    await queryRunner.query(`SELECT gin_clean_pending_list('bot_replies_question_trgm_idx')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of ['bot_replies_search_idx', 'bot_replies_question_trgm_idx']) {
      await queryRunner.query(`ALTER INDEX ${index} RESET (fastupdate)`);
    }
  }
}
