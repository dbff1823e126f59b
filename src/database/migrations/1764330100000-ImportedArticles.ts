import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Articles a content import wrote (DESIGN section 11): the hash of the body as the import wrote
 * it (a body that no longer matches was edited by an agent, and a re-import leaves it alone) and
 * the text a re-import found meanwhile, waiting as a suggestion.
 */
export class ImportedArticles1764330100000 implements MigrationInterface {
  name = 'ImportedArticles1764330100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE kb_articles ADD COLUMN imported_hash text, ADD COLUMN import_suggestion text`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_articles_source_idx ON kb_articles (site_id, source_url)
       WHERE source_url IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE crawled_pages ADD CONSTRAINT crawled_pages_article_fkey
       FOREIGN KEY (article_id) REFERENCES kb_articles (id) ON DELETE SET NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE crawled_pages DROP CONSTRAINT crawled_pages_article_fkey`);
    await queryRunner.query(`DROP INDEX kb_articles_source_idx`);
    await queryRunner.query(
      `ALTER TABLE kb_articles DROP COLUMN imported_hash, DROP COLUMN import_suggestion`,
    );
  }
}
