import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { isUniqueViolation, type SqlExecutor } from '../../database/sql';
import {
  type BotReplyMatch,
  type BotReplyRow,
  BotRepliesRepository,
} from './bot-replies.repository';

const TAKEN = 'This site already has a bot reply to this question.';

/** Question-and-answer pairs the answer bot replies with (DESIGN section 11). */
@Injectable()
export class BotRepliesService {
  constructor(private readonly repository: BotRepliesRepository) {}

  page(
    organizationId: string,
    filter: { siteId?: string; q?: string },
    page: { perPage: number; offset: number },
  ) {
    return this.repository.page(organizationId, filter, page);
  }

  async create(
    organizationId: string,
    userId: string,
    input: {
      siteId: string;
      question: string;
      answer: string;
      enabled?: boolean;
      sourceUrl?: string | null;
    },
  ): Promise<BotReplyRow> {
    try {
      const row = await this.repository.insert(organizationId, {
        ...input,
        enabled: input.enabled ?? true,
        sourceUrl: input.sourceUrl ?? null,
        userId,
      });
      if (!row)
        throw AppError.invalid('site_id', 'The site does not exist.', 'site_not_in_organization');
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('question', TAKEN, 'question_taken');
      throw error;
    }
  }

  async update(
    organizationId: string,
    id: string,
    changes: { question?: string; answer?: string; enabled?: boolean; sourceUrl?: string | null },
  ): Promise<BotReplyRow> {
    try {
      const row = await this.repository.update(organizationId, id, changes);
      if (!row) throw AppError.notFound();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('question', TAKEN, 'question_taken');
      throw error;
    }
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(organizationId, id))) throw AppError.notFound();
  }

  /** The pairs an import found on one page, in the import's transaction. */
  importPairs(
    executor: SqlExecutor,
    organizationId: string,
    site: { id: string; locale: string },
    sourceUrl: string,
    pairs: { question: string; answer: string }[],
  ): Promise<number> {
    return this.repository.upsertImported(
      executor,
      organizationId,
      site.id,
      site.locale,
      sourceUrl,
      pairs,
    );
  }

  /** The enabled replies closest to a visitor's question, best first. */
  best(
    organizationId: string,
    site: { id: string; locale: string },
    text: string,
    limit = 3,
  ): Promise<BotReplyMatch[]> {
    return this.repository.best(organizationId, site.id, site.locale, text.slice(0, 500), limit);
  }
}
