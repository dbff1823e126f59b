import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { BotRepliesService } from '../bot-replies/bot-replies.service';
import { VisitorChatService } from '../conversations/visitor-chat.service';
import { KnowledgeBaseSearch } from '../knowledge-base/knowledge-base.search';
import type { DomainEventRecord } from '../outbox/domain-event';
import { OutboxService } from '../outbox/outbox.service';
import { helpCenterWithDefaults } from '../sites/help-center-settings';
import { SitesService } from '../sites/sites.service';
import { botStrings } from './answer-bot-strings';
import { LanguageModel } from './language-model';
import {
  type AnswerBotSettingsRow,
  AnswerBotRepository,
  type BotConversationRow,
} from './answer-bot.repository';

/** The best answer found for a question, from a bot reply or a published article. */
interface Answer {
  body: string;
  score: number;
  botReplyId: string | null;
  articleId: string | null;
}

/**
 * The answer bot (DESIGN section 11): when a visitor writes and no agent has answered the
 * conversation, it searches the site's bot replies and published articles and, above the site's
 * `min_score`, answers at once with "That helped" and "Talk to a person". It never talks over an
 * agent (checked again with the conversation locked), stops after a handoff or a resolution,
 * and hands off by itself once it has answered `max_answers` times.
 */
@Injectable()
export class AnswerBotService implements OnModuleInit {
  private readonly logger = new Logger('answer-bot');

  constructor(
    private readonly repository: AnswerBotRepository,
    private readonly replies: BotRepliesService,
    private readonly articles: KnowledgeBaseSearch,
    private readonly sites: SitesService,
    private readonly chat: VisitorChatService,
    private readonly outbox: OutboxService,
    private readonly dataSource: DataSource,
    private readonly model: LanguageModel,
  ) {}

  /** Whether generative answers can run here at all (LLM_BASE_URL and LLM_MODEL set). */
  get generativeAvailable(): boolean {
    return this.model.configured;
  }

  answerLog(
    organizationId: string,
    filter: { siteId?: string },
    page: { perPage: number; offset: number },
  ) {
    return this.repository.answerLog(organizationId, filter, page);
  }

  onModuleInit(): void {
    this.outbox.subscribe('message.received', 'AnswerBotService', (event) => this.answer(event));
  }

  /** The site, 404 when it is not the organization's. */
  async siteOf(organizationId: string, siteId: string): Promise<string> {
    return (await this.sites.get(organizationId, siteId)).id;
  }

  settings(organizationId: string, siteId: string): Promise<AnswerBotSettingsRow> {
    return this.repository.settings(organizationId, siteId);
  }

  async saveSettings(
    organizationId: string,
    siteId: string,
    settings: Omit<AnswerBotSettingsRow, 'updated_at'>,
  ): Promise<AnswerBotSettingsRow> {
    const saved = await this.repository.saveSettings(organizationId, siteId, settings);
    if (!saved) throw AppError.notFound();
    return saved;
  }

  report(organizationId: string, range: { from: Date; to: Date; siteId?: string }) {
    return this.repository.report(organizationId, range);
  }

  /** "Talk to a person": the bot says its handoff message and stops for this conversation. */
  async handoff(visitor: VisitorPrincipal, conversationId: string): Promise<void> {
    const conversation = await this.visitorsConversation(visitor, conversationId);
    const settings = await this.repository.settings(visitor.organizationId, conversation.site_id);
    await this.handOver(visitor, conversation, settings);
    await this.repository.recordFeedback(visitor.organizationId, conversationId, 'handoff');
  }

  /** "That helped": the conversation closes, resolved by the bot. */
  async resolved(visitor: VisitorPrincipal, conversationId: string) {
    const conversation = await this.visitorsConversation(visitor, conversationId);
    if (conversation.status === 'closed')
      throw AppError.conflict('The conversation is closed.', 'conversation_closed');
    await this.repository.setState(
      this.dataSource,
      visitor.organizationId,
      conversationId,
      'resolved',
    );
    await this.repository.recordFeedback(visitor.organizationId, conversationId, 'helped');
    return this.chat.end(visitor);
  }

  private async visitorsConversation(
    visitor: VisitorPrincipal,
    conversationId: string,
  ): Promise<BotConversationRow> {
    const conversation = await this.repository.conversation(
      this.dataSource,
      visitor.organizationId,
      conversationId,
    );
    if (!conversation || conversation.visitor_id !== visitor.visitorId) throw AppError.notFound();
    return conversation;
  }

  private async handOver(
    visitor: VisitorPrincipal,
    conversation: BotConversationRow,
    settings: AnswerBotSettingsRow,
  ): Promise<void> {
    if (conversation.status === 'closed')
      throw AppError.conflict('The conversation is closed.', 'conversation_closed');
    const message = settings.handoff_message ?? botStrings(conversation.locale).handedOff;
    await this.chat.postBotMessage(visitor, conversation.id, message, {
      // Once only: a second "Talk to a person" finds the state taken and says nothing.
      stillWanted: (manager) =>
        this.repository.setState(manager, visitor.organizationId, conversation.id, 'handed_off'),
    });
  }

  /** A visitor's message: answered from the site's replies and articles when the bot may. */
  private async answer(event: DomainEventRecord<'message.received'>): Promise<void> {
    if (!event.organizationId) return;
    const organizationId = event.organizationId;
    const { payload } = event;
    const siteId = String(payload.site_id);
    const settings = await this.repository.settings(organizationId, siteId);
    if (!settings.enabled) return;
    const text = payload.message.body.trim();
    if (!text) return;
    const conversationId = String(payload.conversation_id);
    const conversation = await this.repository.conversation(
      this.dataSource,
      organizationId,
      conversationId,
    );
    if (!conversation || conversation.status === 'closed') return;
    if (conversation.bot_state !== null || conversation.agent_replied) return;
    const questionId = await this.repository.claim(organizationId, {
      siteId,
      conversationId,
      messageId: String(payload.message.id),
      text: text.slice(0, 1000),
    });
    if (!questionId) return;
    const visitor: VisitorPrincipal = {
      organizationId,
      siteId,
      visitorId: conversation.visitor_id,
      allowedDomains: [],
    };
    try {
      if (conversation.bot_answers >= settings.max_answers) {
        await this.handOver(visitor, conversation, settings);
        return;
      }
      const site = await this.sites.get(organizationId, siteId);
      const locale =
        conversation.locale?.split('-')[0] ??
        helpCenterWithDefaults(site.helpCenter).default_locale;
      if (settings.generative && this.model.configured) {
        const generated = await this.generate(visitor, conversation, settings, {
          locale,
          text,
          questionId,
          messageId: String(payload.message.id),
        });
        if (generated) return;
      }
      const best = await this.bestAnswer(organizationId, { id: siteId, locale }, text);
      // No good match: silent (the agents answer; away mode says what it says).
      if (!best || best.score < settings.min_score) return;
      const strings = botStrings(conversation.locale);
      await this.chat.postBotMessage(visitor, conversationId, best.body, {
        actions: [
          { id: 'resolved', label: strings.resolved },
          { id: 'handoff', label: strings.handoff },
        ],
        stillWanted: async (manager) => {
          const now = await this.repository.conversation(manager, organizationId, conversationId);
          if (!now || now.agent_replied || now.bot_state !== null) return false;
          await this.repository.answered(manager, organizationId, questionId, best);
          return true;
        },
      });
    } catch (error) {
      // Closed meanwhile: nothing to say.
      if (error instanceof AppError && error.status < 500) return;
      this.logger.warn({ msg: 'answer bot failed', conversationId, error: String(error) });
      throw error;
    }
  }

  /**
   * A generated answer (DESIGN section 11): the top passages retrieved from the site's bot
   * replies and articles go to the language model, which may answer only from them and cites
   * them. It hands over when they do not answer, when the model fails or is late
   * (LLM_TIMEOUT_MS): the visitor then gets the handoff message at once. Every attempt is logged.
   * Answers false when it did not run (no passage at all, or the site's daily cap is reached),
   * so the plain answer bot goes on.
   */
  private async generate(
    visitor: VisitorPrincipal,
    conversation: BotConversationRow,
    settings: AnswerBotSettingsRow,
    question: { locale: string; text: string; questionId: string; messageId: string },
  ): Promise<boolean> {
    const { organizationId } = visitor;
    const site = { id: conversation.site_id, locale: question.locale };
    const [replies, articles] = await Promise.all([
      this.replies.best(organizationId, site, question.text, 3),
      this.articles.forQuestion(organizationId, site, question.text, 3),
    ]);
    const passages = [
      ...replies.map((reply) => ({
        title: reply.question,
        text: reply.answer,
        url: reply.source_url,
        score: reply.score,
      })),
      ...articles.map((article) => ({
        title: article.title,
        text: article.passage,
        url: article.url,
        score: article.score,
      })),
    ]
      .sort((a, b) => b.score - a.score)
      .slice(0, 4)
      .map(({ title, text, url }) => ({ title, text, url }));
    if (passages.length === 0) return false;
    if ((await this.repository.generatedToday(organizationId, site.id)) >= settings.daily_cap) {
      return false;
    }
    const result = await this.model.answer({
      question: question.text,
      passages,
      guidance: settings.guidance,
      forbiddenTopics: settings.forbidden_topics,
      language: question.locale,
    });
    const log = (
      answer: string | null,
      outcome: 'answered' | 'handed_off' | 'failed' | 'timed_out',
    ) =>
      this.repository.logGeneration(this.dataSource, organizationId, {
        siteId: site.id,
        conversationId: conversation.id,
        questionMessageId: question.messageId,
        question: question.text,
        passages,
        answer,
        outcome,
        model: this.model.model,
        latencyMs: result.latencyMs,
      });
    if (result.kind !== 'answer') {
      if (result.kind === 'failed') {
        this.logger.warn({ msg: 'generative answer failed', reason: result.reason });
      }
      await log(null, result.kind === 'handoff' ? 'handed_off' : result.kind);
      await this.handOver(visitor, conversation, settings);
      return true;
    }
    const strings = botStrings(conversation.locale);
    const cited = passages
      .map((passage, index) => ({ ...passage, n: index + 1 }))
      .filter((passage) => passage.url && result.text.includes(`[${passage.n}]`));
    const body = cited.length
      ? `${result.text}\n\n${cited.map((passage) => `[${passage.n}] ${passage.title} ${passage.url}`).join('\n')}`
      : result.text;
    const posted = await this.chat.postBotMessage(visitor, conversation.id, body, {
      type: 'generated',
      actions: [
        { id: 'resolved', label: strings.resolved },
        { id: 'handoff', label: strings.handoff },
      ],
      stillWanted: async (manager) => {
        const now = await this.repository.conversation(manager, organizationId, conversation.id);
        if (!now || now.agent_replied || now.bot_state !== null) return false;
        await this.repository.answered(manager, organizationId, question.questionId, {
          botReplyId: null,
          articleId: null,
          score: 1,
        });
        return true;
      },
    });
    await log(posted ? body : null, 'answered');
    return true;
  }

  private async bestAnswer(
    organizationId: string,
    site: { id: string; locale: string },
    text: string,
  ): Promise<Answer | undefined> {
    const [[reply], [article]] = await Promise.all([
      this.replies.best(organizationId, site, text, 1),
      this.articles.forQuestion(organizationId, site, text, 1),
    ]);
    const strings = botStrings(site.locale);
    const fromReply: Answer | undefined = reply && {
      body: reply.source_url
        ? `${reply.answer}\n\n${strings.readMore}: ${reply.source_url}`
        : reply.answer,
      score: reply.score,
      botReplyId: reply.id,
      articleId: null,
    };
    const fromArticle: Answer | undefined = article && {
      body: `${article.passage.trim()}\n\n${strings.readMore}: ${article.title} ${article.url}`,
      score: article.score,
      botReplyId: null,
      articleId: article.id,
    };
    if (!fromReply) return fromArticle;
    if (!fromArticle) return fromReply;
    // A question asked and answered beats a passage of equal weight.
    return fromArticle.score > fromReply.score * 1.2 ? fromArticle : fromReply;
  }
}
