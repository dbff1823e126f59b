import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query, sql, type SqlExecutor } from '../../database/sql';
import type { ContentImportState, ImportOptions } from '../sites/content-import-state';

export type {
  ContentImportState,
  ImportOptions,
  ImportStatus,
} from '../sites/content-import-state';

@Injectable()
export class ContentImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  async state(organizationId: string, siteId: string): Promise<ContentImportState | undefined> {
    const rows = await sql(
      this.dataSource,
      query<ContentImportState>`SELECT site_id, status, progress, progress_label, pages, kb_articles, bot_replies, options, error, started_at, finished_at FROM content_imports WHERE organization_id = $1 AND site_id = $2`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  /**
   * Queues a new import unless one is queued or running (then undefined: one crawl per site).
   * The counts start again from zero; the pages read before stay, so unchanged ones are skipped.
   */
  async queue(
    organizationId: string,
    siteId: string,
    userId: string,
    options: ImportOptions,
  ): Promise<ContentImportState | undefined> {
    const rows = await sql(
      this.dataSource,
      query<ContentImportState>`INSERT INTO content_imports (site_id, organization_id, status, progress_label, options,
         started_by_user_id, started_at)
       SELECT s.id, s.organization_id, 'queued', 'Waiting to start', $3, $4,
         date_trunc('milliseconds', now())
       FROM sites s WHERE s.organization_id = $1 AND s.id = $2
       ON CONFLICT (site_id) DO UPDATE SET status = 'queued', progress = 0,
         progress_label = EXCLUDED.progress_label, pages = 0, kb_articles = 0, bot_replies = 0,
         options = EXCLUDED.options, error = NULL, started_by_user_id = EXCLUDED.started_by_user_id,
         started_at = EXCLUDED.started_at, finished_at = NULL
       WHERE content_imports.organization_id = $1
         AND content_imports.status NOT IN ('queued', 'running')
       RETURNING site_id, status, progress, progress_label, pages, kb_articles, bot_replies, options, error, started_at, finished_at`,
      [organizationId, siteId, JSON.stringify(options), userId],
    );
    return rows[0];
  }

  /** Marks a queued or running import cancelled; undefined when none was. */
  async cancel(organizationId: string, siteId: string): Promise<ContentImportState | undefined> {
    const rows = await sql(
      this.dataSource,
      query<ContentImportState>`UPDATE content_imports SET status = 'cancelled', finished_at = now(),
         progress_label = 'Cancelled'
       WHERE organization_id = $1 AND site_id = $2 AND status IN ('queued', 'running')
       RETURNING site_id, status, progress, progress_label, pages, kb_articles, bot_replies, options, error, started_at, finished_at`,
      [organizationId, siteId],
    );
    return rows[0];
  }

  /**
   * The job takes its queued import (false when it was cancelled meanwhile, or another run has
   * started since: `started_at`, kept to the millisecond, names the run).
   */
  async begin(organizationId: string, siteId: string, startedAt: Date): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        site_id: string;
      }>`UPDATE content_imports SET status = 'running', progress_label = 'Reading the site'
       WHERE organization_id = $1 AND site_id = $2 AND started_at = $3
         AND status IN ('queued', 'running')
       RETURNING site_id`,
      [organizationId, siteId, startedAt],
    );
    return rows.length > 0;
  }

  /** Progress of a running import; answers false when it is no longer running (cancelled). */
  async progress(
    organizationId: string,
    siteId: string,
    change: { progress: number; label: string; pages: number; articles: number; replies: number },
  ): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        site_id: string;
      }>`UPDATE content_imports SET progress = $3, progress_label = $4, pages = $5,
         kb_articles = $6, bot_replies = $7
       WHERE organization_id = $1 AND site_id = $2 AND status = 'running'
       RETURNING site_id`,
      [
        organizationId,
        siteId,
        change.progress,
        change.label,
        change.pages,
        change.articles,
        change.replies,
      ],
    );
    return rows.length > 0;
  }

  async finish(
    organizationId: string,
    siteId: string,
    outcome: { status: 'completed' | 'failed'; label: string; error?: string },
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE content_imports SET status = $3, progress = CASE WHEN $3 = 'completed' THEN 100
           ELSE progress END, progress_label = $4, error = $5, finished_at = now()
       WHERE organization_id = $1 AND site_id = $2 AND status = 'running'`,
      [organizationId, siteId, outcome.status, outcome.label, outcome.error ?? null],
    );
  }

  /** The hash of a page as last read (undefined for a page never read). */
  async pageHash(
    executor: SqlExecutor,
    organizationId: string,
    siteId: string,
    url: string,
  ): Promise<{ content_hash: string; article_id: string | null } | undefined> {
    const rows = await sql(
      executor,
      query<{
        content_hash: string;
        article_id: string | null;
      }>`SELECT content_hash, article_id FROM crawled_pages
       WHERE organization_id = $1 AND site_id = $2 AND url = $3`,
      [organizationId, siteId, url],
    );
    return rows[0];
  }

  async recordPage(
    executor: SqlExecutor,
    organizationId: string,
    page: { siteId: string; url: string; hash: string; title: string; articleId: string | null },
  ): Promise<void> {
    await sql(
      executor,
      query`INSERT INTO crawled_pages (site_id, organization_id, url, content_hash, title, article_id)
       VALUES ($2, $1, $3, $4, $5, $6)
       ON CONFLICT (site_id, url) DO UPDATE SET content_hash = EXCLUDED.content_hash,
         title = EXCLUDED.title, article_id = COALESCE(EXCLUDED.article_id, crawled_pages.article_id),
         read_at = now()
       WHERE crawled_pages.organization_id = $1`,
      [organizationId, page.siteId, page.url, page.hash, page.title, page.articleId],
    );
  }
}
