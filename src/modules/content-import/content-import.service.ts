import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppError } from '../../common/errors/app-error';
import { type ContentImportJob, QueueName } from '../../queue/queue-names';
import { SitesService } from '../sites/sites.service';
import {
  type ContentImportState,
  ContentImportRepository,
  type ImportOptions,
} from './content-import.repository';

export const MAX_IMPORT_PAGES = 2000;

/** Starting, following and cancelling a site's content import (DESIGN section 11). */
@Injectable()
export class ContentImportService {
  constructor(
    private readonly repository: ContentImportRepository,
    private readonly sites: SitesService,
    @InjectQueue(QueueName.ContentImport) private readonly queue: Queue<ContentImportJob>,
  ) {}

  /** The site's import, or undefined when none was ever started (404 for another's site). */
  async state(organizationId: string, siteId: string): Promise<ContentImportState | undefined> {
    await this.sites.get(organizationId, siteId);
    return this.repository.state(organizationId, siteId);
  }

  async start(
    organizationId: string,
    siteId: string,
    userId: string,
    input: Partial<ImportOptions>,
  ): Promise<ContentImportState> {
    const site = await this.sites.get(organizationId, siteId);
    const startUrl = input.start_url ?? (site.domain ? `https://${site.domain}/` : undefined);
    if (!startUrl) {
      throw AppError.invalid(
        'start_url',
        'Give the address to start from: the site has no domain.',
        'import_start_url_missing',
      );
    }
    const options: ImportOptions = {
      start_url: new URL(startUrl).href,
      max_pages: input.max_pages ?? 200,
      include: input.include ?? [],
      exclude: input.exclude ?? [],
      publish: input.publish ?? false,
    };
    const row = await this.repository.queue(organizationId, siteId, userId, options);
    if (!row)
      throw AppError.conflict('An import of this site is already running.', 'import_running');
    const startedAt = new Date(row.started_at).toISOString();
    try {
      await this.queue.add(
        'import',
        { organizationId, siteId, startedAt },
        {
          jobId: `import-${siteId}-${Date.parse(startedAt)}`,
          // One attempt: a crawl that failed says why; starting again is the owner's choice.
          attempts: 1,
          removeOnComplete: 100,
          removeOnFail: 100,
        },
      );
    } catch (error) {
      await this.repository.cancel(organizationId, siteId);
      throw error;
    }
    return row;
  }

  async cancel(organizationId: string, siteId: string): Promise<ContentImportState> {
    await this.sites.get(organizationId, siteId);
    const row = await this.repository.cancel(organizationId, siteId);
    if (!row) throw AppError.conflict('No import of this site is running.', 'import_not_running');
    return row;
  }
}
