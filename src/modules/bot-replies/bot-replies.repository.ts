import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, pageOf, query, sql, type SqlExecutor } from '../../database/sql';

export interface BotReplyRow {
  id: string;
  site_id: string;
  question: string;
  answer: string;
  enabled: boolean;
  source_url: string | null;
  edited_by_agent: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A reply found for a visitor's question, with how well it matched (0 to 1). */
export interface BotReplyMatch {
  id: string;
  question: string;
  answer: string;
  source_url: string | null;
  score: number;
}

/** How many of the best text matches get the finer score (their question's likeness). */
const CANDIDATES = 10;

@Injectable()
export class BotRepliesRepository {
  constructor(private readonly dataSource: DataSource) {}

  page(
    organizationId: string,
    filter: { siteId?: string; q?: string },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: BotReplyRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<BotReplyRow>`SELECT id, site_id, question, answer, enabled, source_url, edited_by_agent, created_at, updated_at FROM bot_replies
          WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
          AND ($3::text IS NULL OR search @@ websearch_to_tsquery(kb_search_config(locale), $3))
          ORDER BY id DESC LIMIT $4 OFFSET $5`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM bot_replies
          WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
          AND ($3::text IS NULL OR search @@ websearch_to_tsquery(kb_search_config(locale), $3))`,
      },
      [organizationId, filter.siteId ?? null, filter.q ?? null],
      page,
    );
  }

  async find(organizationId: string, id: string): Promise<BotReplyRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<BotReplyRow>`SELECT id, site_id, question, answer, enabled, source_url, edited_by_agent, created_at, updated_at FROM bot_replies WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0];
  }

  async insert(
    organizationId: string,
    input: {
      siteId: string;
      question: string;
      answer: string;
      enabled: boolean;
      sourceUrl: string | null;
      userId: string;
    },
  ): Promise<BotReplyRow> {
    const rows = await sql(
      this.dataSource,
      query<BotReplyRow>`INSERT INTO bot_replies
         (organization_id, site_id, question, answer, enabled, source_url, edited_by_agent,
          created_by_user_id, locale)
       SELECT $1, s.id, $3, $4, $5, $6, true, $7, coalesce(s.help_center->>'default_locale', 'en')
       FROM sites s
       WHERE s.organization_id = $1 AND s.id = $2
       RETURNING id, site_id, question, answer, enabled, source_url, edited_by_agent, created_at, updated_at`,
      [
        organizationId,
        input.siteId,
        input.question,
        input.answer,
        input.enabled,
        input.sourceUrl,
        input.userId,
      ],
    );
    return rows[0];
  }

  /** An agent's change: the reply is theirs from now on (a re-import leaves it alone). */
  async update(
    organizationId: string,
    id: string,
    changes: { question?: string; answer?: string; enabled?: boolean; sourceUrl?: string | null },
  ): Promise<BotReplyRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<BotReplyRow>`UPDATE bot_replies SET question = COALESCE($3, question), answer = COALESCE($4, answer),
         enabled = COALESCE($5, enabled),
         source_url = CASE WHEN $6::boolean THEN $7 ELSE source_url END,
         edited_by_agent = edited_by_agent OR $3 IS NOT NULL OR $4 IS NOT NULL,
         updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING id, site_id, question, answer, enabled, source_url, edited_by_agent, created_at, updated_at`,
      [
        organizationId,
        id,
        changes.question ?? null,
        changes.answer ?? null,
        changes.enabled ?? null,
        changes.sourceUrl !== undefined,
        changes.sourceUrl ?? null,
      ],
    );
    return rows[0];
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`DELETE FROM bot_replies WHERE organization_id = $1 AND id = $2 RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  /**
   * Writes the pairs an import found: new questions are added (enabled), imported ones updated,
   * and a reply an agent has written or edited is left as it is. Answers how many were added or
   * changed.
   */
  async upsertImported(
    executor: SqlExecutor,
    organizationId: string,
    siteId: string,
    locale: string,
    sourceUrl: string,
    pairs: { question: string; answer: string }[],
  ): Promise<number> {
    if (pairs.length === 0) return 0;
    const rows = await sql(
      executor,
      query<{
        id: string;
      }>`INSERT INTO bot_replies (organization_id, site_id, question, answer, source_url, locale)
       SELECT $1, $2, p.question, p.answer, $3, $6
       FROM unnest($4::text[], $5::text[]) AS p (question, answer)
       ON CONFLICT (site_id, lower(question)) DO UPDATE
         SET answer = EXCLUDED.answer, source_url = EXCLUDED.source_url, updated_at = now()
         WHERE bot_replies.organization_id = $1 AND NOT bot_replies.edited_by_agent
           AND bot_replies.answer IS DISTINCT FROM EXCLUDED.answer
       RETURNING id`,
      [
        organizationId,
        siteId,
        sourceUrl,
        pairs.map((pair) => pair.question),
        pairs.map((pair) => pair.answer),
        locale,
      ],
    );
    return rows.length;
  }

  /**
   * The enabled replies of a site closest to a visitor's question: any of its words (stop words
   * dropped, stems matched, in the language of `locale`) ranked by cover density, or the question
   * by trigram similarity (other wordings, typos). `score` is in 0..1.
   */
  /**
   * The enabled replies closest to a visitor's question, best first. The question's terms (the
   * site language's stems, without stop words) are matched two at a time first, any one of them
   * only when no reply has two: one common word matches thousands of replies at 10 000, and
   * ranking them all cost more than the rest of the answer (bench:bot). The best few text
   * matches by rank then get their question's likeness to the text; trigram typos are looked for
   * only when no term matched at all.
   */
  async best(
    organizationId: string,
    siteId: string,
    locale: string,
    text: string,
    limit: number,
  ): Promise<BotReplyMatch[]> {
    const [{ terms }] = await sql(
      this.dataSource,
      handTyped<{
        terms: string[];
      }>`SELECT tsvector_to_array(to_tsvector(kb_search_config($1), $2)) AS terms`,
      [locale, text],
    );
    const quoted = terms
      .slice(0, 12)
      .map((term) => `'${term.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`);
    const pairs = quoted.flatMap((a, i) => quoted.slice(i + 1).map((b) => `${a} & ${b}`));
    // Ranked by any term either way, so a score means the same whichever matched.
    const anyTerm = quoted.join(' | ');
    for (const match of [pairs.join(' | '), anyTerm]) {
      if (!match) continue;
      const found = await sql(
        this.dataSource,
        handTyped<BotReplyMatch>`SELECT id, question, answer, source_url,
           greatest(rank, similarity(lower(question), $5))::float8 AS score
         FROM (SELECT id, question, answer, source_url, ts_rank_cd(search, $4::tsquery, 32) AS rank
               FROM bot_replies
               WHERE organization_id = $1 AND site_id = $2 AND enabled AND search @@ $3::tsquery
               ORDER BY rank DESC, id LIMIT $6) AS hits
         ORDER BY score DESC, id LIMIT $7`,
        [organizationId, siteId, match, anyTerm, text.toLowerCase(), CANDIDATES, limit],
      );
      if (found.length > 0) return found;
    }
    return sql(
      this.dataSource,
      handTyped<BotReplyMatch>`SELECT id, question, answer, source_url, similarity(lower(question), $3)::float8 AS score
       FROM bot_replies
       WHERE organization_id = $1 AND site_id = $2 AND enabled AND lower(question) % $3
       ORDER BY score DESC, id LIMIT $4`,
      [organizationId, siteId, text.toLowerCase(), limit],
    );
  }
}
