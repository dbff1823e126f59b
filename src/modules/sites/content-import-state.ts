import { ApiProperty } from '@nestjs/swagger';

export type ImportStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** What an import was asked to do (DESIGN section 11). */
export interface ImportOptions {
  start_url: string;
  max_pages: number;
  include: string[];
  exclude: string[];
  publish: boolean;
}

/**
 * A site's content import as the spec and DESIGN section 11 show it: kept here, with the site,
 * because both site reads carry it; the content-import feature writes the rows.
 */
export interface ContentImportState {
  site_id: string;
  status: ImportStatus;
  progress: number;
  progress_label: string;
  pages: number;
  kb_articles: number;
  bot_replies: number;
  options: ImportOptions;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

export class ImportSummaryDto {
  @ApiProperty({ description: 'Pages read and kept' }) pages!: number;
  @ApiProperty({ description: 'Articles this import wrote or updated' }) kb_articles!: number;
  @ApiProperty({ description: 'Bot replies this import wrote or updated' }) bot_replies!: number;
}

const STATUSES = ['not_started', 'queued', 'running', 'completed', 'failed', 'cancelled'];

/** The spec's `content_import` object (DESIGN section 11 adds the times and the error). */
export class ContentImportStateDto {
  @ApiProperty({ enum: STATUSES, example: 'running' }) status!: string;
  @ApiProperty({ minimum: 0, maximum: 100, example: 40 }) progress!: number;
  @ApiProperty({ example: 'Read 40 of 120 pages' }) progress_label!: string;
  @ApiProperty({ type: ImportSummaryDto }) summary!: ImportSummaryDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a failed import stopped' })
  error!: string | null;
}

export function toContentImportState(row: ContentImportState | undefined): ContentImportStateDto {
  if (!row) {
    return {
      status: 'not_started',
      progress: 0,
      progress_label: 'Not started',
      summary: { pages: 0, kb_articles: 0, bot_replies: 0 },
      started_at: null,
      finished_at: null,
      error: null,
    };
  }
  return {
    status: row.status,
    progress: row.progress,
    progress_label: row.progress_label,
    summary: { pages: row.pages, kb_articles: row.kb_articles, bot_replies: row.bot_replies },
    started_at: new Date(row.started_at).toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    error: row.error,
  };
}
