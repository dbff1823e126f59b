import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 29 (DESIGN section 10): knowledge-base categories and articles per site and locale, their
 * views and "was this helpful" answers, and the help-center settings of a site.
 *
 * Search: `search_vector` is computed by PostgreSQL from the title (weight A), the excerpt (B)
 * and the body's plain text (C) in the text-search configuration of the article's locale
 * (`kb_search_config`, `simple` when the language has none); a GIN index serves full text, a
 * trigram GIN index on the title serves typos (`pg_trgm`).
 */
export class KnowledgeBase1764300000000 implements MigrationInterface {
  name = 'KnowledgeBase1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`
      CREATE FUNCTION kb_search_config(locale text) RETURNS regconfig
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE split_part(lower(locale), '-', 1)
          WHEN 'en' THEN 'pg_catalog.english'::regconfig
          WHEN 'de' THEN 'pg_catalog.german'::regconfig
          WHEN 'fr' THEN 'pg_catalog.french'::regconfig
          WHEN 'es' THEN 'pg_catalog.spanish'::regconfig
          WHEN 'pt' THEN 'pg_catalog.portuguese'::regconfig
          WHEN 'ar' THEN 'pg_catalog.arabic'::regconfig
          WHEN 'it' THEN 'pg_catalog.italian'::regconfig
          WHEN 'nl' THEN 'pg_catalog.dutch'::regconfig
          ELSE 'pg_catalog.simple'::regconfig
        END
      $$`);
    await queryRunner.query(
      `ALTER TABLE sites ADD COLUMN help_center jsonb NOT NULL DEFAULT '{}'::jsonb`,
    );
    await queryRunner.query(`
      CREATE TABLE kb_categories (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        locale text NOT NULL,
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        position integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX kb_categories_slug_key ON kb_categories (site_id, locale, slug)`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_categories_organization_idx ON kb_categories (organization_id, site_id, locale, position)`,
    );
    await queryRunner.query(`
      CREATE TABLE kb_articles (
        id bigserial PRIMARY KEY,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        site_id bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
        locale text NOT NULL,
        category_id bigint REFERENCES kb_categories (id) ON DELETE SET NULL,
        translation_of bigint REFERENCES kb_articles (id) ON DELETE SET NULL,
        title text NOT NULL,
        slug text NOT NULL,
        body text NOT NULL DEFAULT '',
        body_html text NOT NULL DEFAULT '',
        body_text text NOT NULL DEFAULT '',
        excerpt text,
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
        views integer NOT NULL DEFAULT 0,
        helpful integer NOT NULL DEFAULT 0,
        not_helpful integer NOT NULL DEFAULT 0,
        source_url text,
        created_by_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
        published_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        search_vector tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector(kb_search_config(locale), title), 'A') ||
          setweight(to_tsvector(kb_search_config(locale), coalesce(excerpt, '')), 'B') ||
          setweight(to_tsvector(kb_search_config(locale), body_text), 'C')
        ) STORED
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX kb_articles_slug_key ON kb_articles (site_id, locale, slug)`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_articles_list_idx ON kb_articles (organization_id, site_id, locale, status, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_articles_popular_idx ON kb_articles (site_id, locale, views DESC) WHERE status = 'published'`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_articles_translation_idx ON kb_articles (translation_of) WHERE translation_of IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_articles_category_idx ON kb_articles (category_id) WHERE category_id IS NOT NULL`,
    );
    // Without the pending list: articles change rarely, and a search must not scan a list of
    // unmerged entries (a bulk import would leave thousands until the next vacuum).
    await queryRunner.query(
      `CREATE INDEX kb_articles_search_idx ON kb_articles USING gin (search_vector) WITH (fastupdate = off)`,
    );
    await queryRunner.query(
      `CREATE INDEX kb_articles_title_trgm_idx ON kb_articles USING gin (title gin_trgm_ops) WITH (fastupdate = off)`,
    );
    // Once per visitor and article; the counts on the article follow in the same transaction.
    await queryRunner.query(`
      CREATE TABLE kb_article_feedback (
        article_id bigint NOT NULL REFERENCES kb_articles (id) ON DELETE CASCADE,
        visitor_id bigint NOT NULL REFERENCES visitors (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        helpful boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (article_id, visitor_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX kb_article_feedback_visitor_idx ON kb_article_feedback (visitor_id)`,
    );
    // A view counts once per visitor, article and day.
    await queryRunner.query(`
      CREATE TABLE kb_article_views (
        article_id bigint NOT NULL REFERENCES kb_articles (id) ON DELETE CASCADE,
        visitor_id bigint NOT NULL REFERENCES visitors (id) ON DELETE CASCADE,
        organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        day date NOT NULL,
        PRIMARY KEY (article_id, visitor_id, day)
      )`);
    await queryRunner.query(
      `CREATE INDEX kb_article_views_visitor_idx ON kb_article_views (visitor_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE kb_article_views`);
    await queryRunner.query(`DROP TABLE kb_article_feedback`);
    await queryRunner.query(`DROP TABLE kb_articles`);
    await queryRunner.query(`DROP TABLE kb_categories`);
    await queryRunner.query(`ALTER TABLE sites DROP COLUMN help_center`);
    await queryRunner.query(`DROP FUNCTION kb_search_config(text)`);
    // pg_trgm stays: another feature may use it, and dropping an extension is an operator's call.
  }
}
