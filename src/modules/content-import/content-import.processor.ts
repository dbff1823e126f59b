import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ownDatabaseServer,
  parseAllowedTargets,
  resolveOwnServers,
  type TargetPolicy,
} from '../../common/net/target-policy';
import { AppConfig } from '../../config/app-config';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../../database/database-runtime';
import { type ContentImportJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { BotRepliesService } from '../bot-replies/bot-replies.service';
import { KnowledgeBaseService } from '../knowledge-base/knowledge-base.service';
import { helpCenterWithDefaults } from '../sites/help-center-settings';
import { SitesService } from '../sites/sites.service';
import { ContentImportRepository, type ImportOptions } from './content-import.repository';
import { crawl } from './crawler';
import type { PageContent } from './page-content';
import { crawlScope, type FetchLimits } from './page-fetch';

const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const CANCEL_CHECK_MS = 1000;

/** What one run has stored so far (the spec's `summary`). */
interface Tally {
  pages: number;
  articles: number;
  replies: number;
}

/**
 * Runs a site's content import: crawls it (crawler.ts), and writes each page's article and bot
 * replies in one transaction, skipping a page whose content has not changed since it was last
 * read. Progress goes to the content_imports row as it goes; a cancel there stops the crawl
 * within a page.
 */
@Injectable()
@QueueWorker(QueueName.ContentImport, { concurrency: 2, lockDuration: 60_000 })
export class ContentImportProcessor implements JobProcessor<ContentImportJob> {
  private readonly logger = new Logger('content-import');
  private readonly policy: TargetPolicy;
  private ownDatabaseResolved?: Promise<void>;

  constructor(
    private readonly repository: ContentImportRepository,
    private readonly replies: BotRepliesService,
    private readonly knowledgeBase: KnowledgeBaseService,
    private readonly sites: SitesService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(DATABASE_RUNTIME) database: DatabaseRuntime,
  ) {
    this.policy = {
      allowed: parseAllowedTargets(config.env.CRAWL_ALLOWED_HOSTS),
      ownDatabase: [ownDatabaseServer(database.url)],
    };
  }

  async process(job: Job<ContentImportJob>): Promise<void> {
    const { organizationId, siteId } = job.data;
    if (!(await this.repository.begin(organizationId, siteId, new Date(job.data.startedAt)))) {
      return;
    }
    try {
      const tally = await this.run(organizationId, siteId);
      await this.repository.finish(organizationId, siteId, {
        status: 'completed',
        label: `Read ${tally.pages} ${tally.pages === 1 ? 'page' : 'pages'}`,
      });
    } catch (error) {
      this.logger.warn({ msg: 'content import failed', siteId, error: String(error) });
      await this.repository.finish(organizationId, siteId, {
        status: 'failed',
        label: 'The import stopped',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private async run(organizationId: string, siteId: string): Promise<Tally> {
    const [state, site] = await Promise.all([
      this.repository.state(organizationId, siteId),
      this.sites.get(organizationId, siteId),
      this.resolveOwnDatabase(),
    ]);
    if (!state || !site) throw new Error('the site is gone');
    const options: ImportOptions = state.options;
    const locale = helpCenterWithDefaults(site.helpCenter).default_locale;
    const start = new URL(options.start_url);
    const limits: FetchLimits = {
      policy: this.policy,
      onSite: crawlScope(start, site.domain, site.allowedDomains),
      timeoutMs: this.config.env.CRAWL_PAGE_TIMEOUT_MS,
      maxBytes: MAX_PAGE_BYTES,
      userAgent: `SupportChatService/1.0 (+${this.config.publicUrl})`,
    };
    const tally: Tally = { pages: 0, articles: 0, replies: 0 };
    const seen = new Set<string>();
    // One page written at a time: two pages of the same title would race for one slug.
    let writing: Promise<unknown> = Promise.resolve();
    let stopped = false;
    const watch = setInterval(() => {
      void this.repository.state(organizationId, siteId).then(
        (row) => (stopped ||= row?.status !== 'running'),
        () => undefined,
      );
    }, CANCEL_CHECK_MS);
    try {
      const result = await crawl(
        {
          start,
          maxPages: options.max_pages,
          include: options.include,
          exclude: options.exclude,
          delayMs: this.config.env.CRAWL_DELAY_MS,
          concurrency: 2,
          limits,
        },
        {
          stopped: () => stopped,
          page: async (content) => {
            // The same page under two addresses, or the same text on two pages: stored once.
            if (seen.has(content.canonical) || (content.markdown && seen.has(content.hash))) return;
            seen.add(content.canonical);
            if (content.markdown) seen.add(content.hash);
            tally.pages += 1;
            const next = writing
              .catch(() => undefined)
              .then(() => this.store(organizationId, siteId, locale, content, options.publish));
            writing = next;
            const stored = await next;
            tally.articles += stored.articles;
            tally.replies += stored.replies;
          },
          progress: async (read, planned) => {
            const running = await this.repository.progress(organizationId, siteId, {
              progress: Math.min(99, Math.floor((100 * read) / Math.max(planned, 1))),
              label: `Read ${read} of ${planned} pages`,
              pages: tally.pages,
              articles: tally.articles,
              replies: tally.replies,
            });
            stopped ||= !running;
          },
        },
      );
      if (result.skipped.length > 0) {
        this.logger.log({
          msg: 'content import skipped pages',
          siteId,
          skipped: result.skipped.length,
        });
      }
      return tally;
    } finally {
      clearInterval(watch);
    }
  }

  /** One page's article and bot replies, in one transaction; nothing when it has not changed. */
  private async store(
    organizationId: string,
    siteId: string,
    locale: string,
    content: PageContent,
    publish: boolean,
  ): Promise<{ articles: number; replies: number }> {
    const stored = await this.dataSource.transaction(async (manager: EntityManager) => {
      const before = await this.repository.pageHash(
        manager,
        organizationId,
        siteId,
        content.canonical,
      );
      if (before?.content_hash === content.hash && content.questions.length === 0) {
        return { articles: 0, replies: 0 };
      }
      const replies = await this.replies.importPairs(
        manager,
        organizationId,
        { id: siteId, locale },
        content.canonical,
        content.questions,
      );
      let articleId = before?.article_id ?? null;
      let articles = 0;
      if (content.markdown && before?.content_hash !== content.hash) {
        const article = await this.knowledgeBase.importPage(manager, organizationId, siteId, {
          sourceUrl: content.canonical,
          title: content.title,
          markdown: content.markdown,
          excerpt: content.description,
          publish,
        });
        articleId = article.id;
        if (article.outcome === 'created' || article.outcome === 'updated') articles = 1;
      }
      await this.repository.recordPage(manager, organizationId, {
        siteId,
        url: content.canonical,
        hash: content.hash,
        title: content.title,
        articleId,
      });
      return { articles, replies };
    });
    // Committed: visitors' searches see the article (published or not, it may have been before).
    if (stored.articles > 0) await this.knowledgeBase.articlesChanged(siteId);
    return stored;
  }

  /** The addresses of the service's own database server, resolved once (see target-policy). */
  private resolveOwnDatabase(): Promise<void> {
    this.ownDatabaseResolved ??= resolveOwnServers(this.policy);
    return this.ownDatabaseResolved;
  }
}
