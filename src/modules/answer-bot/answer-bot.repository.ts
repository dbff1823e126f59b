import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, pageOf, query, sql, type SqlExecutor } from '../../database/sql';
import type { ConversationStatus } from '../conversations/conversations.repository';

export interface AnswerBotSettingsRow {
  enabled: boolean;
  min_score: number;
  handoff_message: string | null;
  max_answers: number;
  generative: boolean;
  guidance: string | null;
  forbidden_topics: string[];
  daily_cap: number;
  updated_at: Date | null;
}

/** How an answer attempt ended (`answer_log.outcome`). */
export type AnswerOutcome = 'answered' | 'handed_off' | 'failed' | 'timed_out';
/** What the visitor said of an answer (`answer_log.feedback`). */
export type AnswerFeedback = 'helped' | 'handoff';
/** Where the bot left a conversation (`conversations.bot_state`). */
export type BotState = 'handed_off' | 'resolved';

/** One generated answer (or the attempt), as the answer log shows it. */
export interface AnswerLogRow {
  id: string;
  site_id: string;
  conversation_id: string;
  question: string;
  passages: { title: string; url: string | null }[];
  answer: string | null;
  outcome: AnswerOutcome;
  model: string;
  latency_ms: number;
  feedback: AnswerFeedback | null;
  created_at: Date;
}

/** Where a conversation stands, as the bot decides whether to answer. */
export interface BotConversationRow {
  id: string;
  site_id: string;
  visitor_id: string;
  status: ConversationStatus;
  locale: string | null;
  bot_state: BotState | null;
  agent_replied: boolean;
  bot_answers: number;
}

export interface AnswerBotReportRow {
  questions: number;
  answered: number;
  resolved: number;
  handed_off: number;
}

export const DEFAULT_SETTINGS: AnswerBotSettingsRow = {
  enabled: false,
  min_score: 0.3,
  handoff_message: null,
  max_answers: 3,
  generative: false,
  guidance: null,
  forbidden_topics: [],
  daily_cap: 200,
  updated_at: null,
};

@Injectable()
export class AnswerBotRepository {
  constructor(private readonly dataSource: DataSource) {}

  async settings(organizationId: string, siteId: string): Promise<AnswerBotSettingsRow> {
    const rows = await sql(
      this.dataSource,
      handTyped<AnswerBotSettingsRow>`SELECT enabled, min_score, handoff_message, max_answers, generative, guidance, forbidden_topics, daily_cap, updated_at
       FROM answer_bot_settings WHERE organization_id = $1 AND site_id = $2`,
      [organizationId, siteId],
    );
    return rows[0] ?? DEFAULT_SETTINGS;
  }

  async saveSettings(
    organizationId: string,
    siteId: string,
    settings: Omit<AnswerBotSettingsRow, 'updated_at'>,
  ): Promise<AnswerBotSettingsRow> {
    const rows = await sql(
      this.dataSource,
      handTyped<AnswerBotSettingsRow>`INSERT INTO answer_bot_settings
         (site_id, organization_id, enabled, min_score, handoff_message, max_answers, generative,
          guidance, forbidden_topics, daily_cap)
       SELECT s.id, s.organization_id, $3, $4, $5, $6, $7, $8, $9, $10 FROM sites s
       WHERE s.organization_id = $1 AND s.id = $2
       ON CONFLICT (site_id) DO UPDATE SET enabled = EXCLUDED.enabled,
         min_score = EXCLUDED.min_score, handoff_message = EXCLUDED.handoff_message,
         max_answers = EXCLUDED.max_answers, generative = EXCLUDED.generative,
         guidance = EXCLUDED.guidance, forbidden_topics = EXCLUDED.forbidden_topics,
         daily_cap = EXCLUDED.daily_cap, updated_at = now()
       WHERE answer_bot_settings.organization_id = $1
       RETURNING enabled, min_score, handoff_message, max_answers, generative, guidance, forbidden_topics, daily_cap, updated_at`,
      [
        organizationId,
        siteId,
        settings.enabled,
        settings.min_score,
        settings.handoff_message,
        settings.max_answers,
        settings.generative,
        settings.guidance,
        JSON.stringify(settings.forbidden_topics),
        settings.daily_cap,
      ],
    );
    return rows[0];
  }

  async conversation(
    executor: SqlExecutor,
    organizationId: string,
    conversationId: string,
  ): Promise<BotConversationRow | undefined> {
    const rows = await sql(
      executor,
      handTyped<BotConversationRow>`SELECT c.id, c.site_id, c.visitor_id, c.status, c.locale, c.bot_state,
         EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id
           AND m.sender_type = 'agent' AND NOT m.private) AS agent_replied,
         (SELECT count(*)::int FROM bot_questions q
           WHERE q.conversation_id = c.id AND q.answered) AS bot_answers
       FROM conversations c WHERE c.organization_id = $1 AND c.id = $2`,
      [organizationId, conversationId],
    );
    return rows[0];
  }

  /** Takes a visitor message for the bot, once (the outbox delivers at least once). */
  async claim(
    organizationId: string,
    question: { siteId: string; conversationId: string; messageId: string; text: string },
  ): Promise<string | undefined> {
    const rows = await sql(
      this.dataSource,
      query<{
        id: string;
      }>`INSERT INTO bot_questions (organization_id, site_id, conversation_id, message_id, question)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (message_id) DO NOTHING RETURNING id`,
      [organizationId, question.siteId, question.conversationId, question.messageId, question.text],
    );
    return rows[0]?.id;
  }

  async answered(
    executor: SqlExecutor,
    organizationId: string,
    questionId: string,
    match: { botReplyId: string | null; articleId: string | null; score: number },
  ): Promise<void> {
    await sql(
      executor,
      query`UPDATE bot_questions SET answered = true, bot_reply_id = $3, article_id = $4, score = $5
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, questionId, match.botReplyId, match.articleId, match.score],
    );
  }

  /** The bot stops for this conversation: handed to the agents, or resolved by the visitor. */
  async setState(
    executor: SqlExecutor,
    organizationId: string,
    conversationId: string,
    state: 'handed_off' | 'resolved',
  ): Promise<boolean> {
    const rows = await sql(
      executor,
      query<{ id: string }>`UPDATE conversations SET bot_state = $3, bot_state_at = now()
       WHERE organization_id = $1 AND id = $2 AND bot_state IS NULL RETURNING id`,
      [organizationId, conversationId, state],
    );
    return rows.length > 0;
  }

  async report(
    organizationId: string,
    range: { from: Date; to: Date; siteId?: string },
  ): Promise<{ totals: AnswerBotReportRow; unanswered: { question: string; asked: number }[] }> {
    const parameters = [organizationId, range.from, range.to, range.siteId ?? null];
    const [totals, unanswered] = await Promise.all([
      sql(
        this.dataSource,
        query<AnswerBotReportRow>`SELECT
           COALESCE((SELECT count(*)::int FROM bot_questions WHERE organization_id = $1
             AND created_at >= $2 AND created_at < $3 AND ($4::bigint IS NULL OR site_id = $4)), 0)
             AS questions,
           COALESCE((SELECT count(*)::int FROM bot_questions WHERE organization_id = $1 AND answered
             AND created_at >= $2 AND created_at < $3 AND ($4::bigint IS NULL OR site_id = $4)), 0)
             AS answered,
           COALESCE((SELECT count(*)::int FROM conversations WHERE organization_id = $1
             AND bot_state = 'resolved' AND bot_state_at >= $2 AND bot_state_at < $3
             AND ($4::bigint IS NULL OR site_id = $4)), 0) AS resolved,
           COALESCE((SELECT count(*)::int FROM conversations WHERE organization_id = $1
             AND bot_state = 'handed_off' AND bot_state_at >= $2 AND bot_state_at < $3
             AND ($4::bigint IS NULL OR site_id = $4)), 0) AS handed_off`,
        parameters,
      ),
      sql(
        this.dataSource,
        handTyped<{
          question: string;
          asked: number;
        }>`SELECT min(question) AS question, count(*)::int AS asked FROM bot_questions
         WHERE organization_id = $1 AND NOT answered AND created_at >= $2 AND created_at < $3
           AND ($4::bigint IS NULL OR site_id = $4)
         GROUP BY lower(question) ORDER BY asked DESC, min(created_at) DESC LIMIT 50`,
        parameters,
      ),
    ]);
    return { totals: totals[0], unanswered };
  }

  /** Generated answers of the site in the last 24 hours (the daily cap). */
  async generatedToday(organizationId: string, siteId: string): Promise<number> {
    const rows = await sql(
      this.dataSource,
      query<{
        count: number;
      }>`SELECT count(*)::int AS count FROM answer_log WHERE organization_id = $1 AND site_id = $2
         AND created_at > now() - interval '1 day'`,
      [organizationId, siteId],
    );
    return rows[0].count;
  }

  async logGeneration(
    executor: SqlExecutor,
    organizationId: string,
    entry: {
      siteId: string;
      conversationId: string;
      questionMessageId: string;
      question: string;
      passages: { title: string; url: string | null; text: string }[];
      answer: string | null;
      outcome: AnswerLogRow['outcome'];
      model: string;
      latencyMs: number;
    },
  ): Promise<void> {
    await sql(
      executor,
      query`INSERT INTO answer_log (organization_id, site_id, conversation_id, question_message_id,
         question, passages, answer, outcome, model, latency_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        organizationId,
        entry.siteId,
        entry.conversationId,
        entry.questionMessageId,
        entry.question,
        JSON.stringify(entry.passages),
        entry.answer,
        entry.outcome,
        entry.model,
        entry.latencyMs,
      ],
    );
  }

  /** The visitor's button on the conversation's latest generated answer. */
  async recordFeedback(
    organizationId: string,
    conversationId: string,
    feedback: 'helped' | 'handoff',
  ): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE answer_log SET feedback = $3 WHERE organization_id = $1 AND id = (
         SELECT id FROM answer_log WHERE organization_id = $1 AND conversation_id = $2
           AND outcome = 'answered' ORDER BY id DESC LIMIT 1)`,
      [organizationId, conversationId, feedback],
    );
  }

  answerLog(
    organizationId: string,
    filter: { siteId?: string },
    page: { perPage: number; offset: number },
  ): Promise<{ rows: AnswerLogRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: handTyped<AnswerLogRow>`SELECT id, site_id, conversation_id, question, passages, answer, outcome, model, latency_ms, feedback, created_at FROM answer_log
          WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)
          ORDER BY id DESC LIMIT $3 OFFSET $4`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM answer_log
          WHERE organization_id = $1 AND ($2::bigint IS NULL OR site_id = $2)`,
      },
      [organizationId, filter.siteId ?? null],
      page,
    );
  }
}
