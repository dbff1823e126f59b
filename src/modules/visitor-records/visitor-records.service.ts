import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { AppError, type FieldErrors } from '../../common/errors/app-error';
import { ConversationsService } from '../conversations/conversations.service';
import { VisitorChatService } from '../conversations/visitor-chat.service';
import {
  DataLookupService,
  type OwnerRecord,
  type SiteLookup,
} from '../data-lookup/data-lookup.service';
import type { RecordFilters } from '../data-lookup/lookup-queries';
import { type LookupRule, matchRule } from '../data-lookup/lookup-settings';
import { cells, escapeHtml, renderTemplate, tableBlock } from '../data-lookup/table-markup';
import type { DomainEventRecord } from '../outbox/domain-event';
import { OutboxService } from '../outbox/outbox.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { planIncludes } from '../organizations/plans';
import { AccountLoginService } from '../account-login/account-login.service';
import { VisitorRecordsRepository } from './visitor-records.repository';

/** The page of a rule as reply markup: the rule's label, then its table with paging and actions. */
export function ruleReply(
  rule: LookupRule,
  rows: OwnerRecord[],
  page: number,
  hasMore: boolean,
): string {
  const label = escapeHtml(rule.label);
  if (rows.length === 0 && page === 1) return `${label}\nNothing to show yet.`;
  // The widget needs the rule, the page and the actions to offer "more" and row buttons.
  return `${label}\n${tableBlock(rule.columns, cells(rule.columns, rows), {
    rule_id: rule.id,
    page,
    has_more: hasMore,
    row_key: rule.row_key,
    actions: rule.actions.map((action) => ({ id: action.id, label: action.label })),
  })}`;
}

/**
 * What a logged-in visitor sees of the owner's records: the record search, keyword-triggered bot
 * replies with a rule's first page, later pages, and row actions. Every read is limited to rows
 * whose account column holds the visitor's account key.
 */
@Injectable()
export class VisitorRecordsService implements OnModuleInit {
  private readonly logger = new Logger('data-lookup');

  constructor(
    private readonly accountLogin: AccountLoginService,
    private readonly repository: VisitorRecordsRepository,
    private readonly dataLookup: DataLookupService,
    private readonly organizations: OrganizationsService,
    private readonly conversations: ConversationsService,
    private readonly chat: VisitorChatService,
    private readonly outbox: OutboxService,
  ) {}

  onModuleInit(): void {
    this.outbox.subscribe('message.received', 'VisitorRecordsService', (event) =>
      this.answerKeywords(event),
    );
  }

  /** `POST /widget/filter-records/search`. */
  async search(visitor: VisitorPrincipal, filters: RecordFilters = {}) {
    const lookup = await this.lookup(visitor);
    const record = lookup.settings.filter_record;
    if (!record?.enabled)
      throw AppError.forbidden(
        'Record search is not enabled for this site.',
        'record_search_disabled',
      );
    const errors: FieldErrors = {};
    for (const key of Object.keys(filters) as (keyof RecordFilters)[]) {
      if (filters[key] === undefined) continue;
      const preset = key === 'date_from' || key === 'date_to' ? 'date' : key;
      if (!record.filters[preset])
        errors[`filters.${key}`] = [`This site does not search by ${key}.`];
    }
    if (Object.keys(errors).length > 0) throw AppError.validation(errors, 'record_filter_refused');
    const accountKey = await this.accountLogin.accountKey(visitor, lookup);
    if (accountKey === undefined) return { success: false, body: record.login_required_reply };
    const rows = await this.dataLookup.search(lookup, accountKey, filters);
    if (rows.length === 0) return { success: true, body: record.empty_reply };
    return { success: true, body: tableBlock(record.columns, cells(record.columns, rows)) };
  }

  /** `POST /widget/data-lookup/paginate`. */
  async page(
    visitor: VisitorPrincipal,
    input: { conversationId: string; ruleId: string; page: number; triggerMessage?: number },
  ) {
    const { lookup, rule, accountKey } = await this.ruleContext(visitor, input);
    if (accountKey === undefined) {
      return { reply_body: this.loginRequired(lookup), page: input.page, has_more: false };
    }
    const { rows, hasMore } = await this.dataLookup.page(lookup, rule, accountKey, input.page);
    this.logger.log({
      msg: 'data lookup page',
      ruleId: rule.id,
      page: input.page,
      triggerMessage: input.triggerMessage ?? null,
    });
    return {
      reply_body: ruleReply(rule, rows, input.page, hasMore),
      page: input.page,
      has_more: hasMore,
    };
  }

  /** `POST /widget/data-lookup/row-action`: the row is read again, so it must be the account's. */
  async rowAction(
    visitor: VisitorPrincipal,
    input: {
      conversationId: string;
      ruleId: string;
      actionId: string;
      row: Record<string, unknown>;
    },
  ) {
    const { lookup, rule, accountKey } = await this.ruleContext(visitor, input);
    const action = rule.actions.find((candidate) => candidate.id === input.actionId);
    if (!action)
      throw AppError.invalid(
        'action_id',
        'The rule has no action with this id.',
        'data_lookup_action_unknown',
      );
    const key = input.row[rule.row_key];
    if (typeof key !== 'string' && typeof key !== 'number') {
      throw AppError.invalid(
        `row.${rule.row_key}`,
        `The row must carry its ${rule.row_key}.`,
        'data_lookup_row_incomplete',
      );
    }
    if (accountKey === undefined) return { reply_body: this.loginRequired(lookup) };
    const row = await this.dataLookup.row(lookup, rule, accountKey, String(key));
    if (!row) throw AppError.notFound();
    return { reply_body: renderTemplate(action.reply, row) };
  }

  /**
   * A logged-in visitor's message holding a rule's keyword gets the rule's first page as a bot
   * message. Runs from the outbox (at least once): a claim per message makes it answer once.
   */
  private async answerKeywords(event: DomainEventRecord<'message.received'>): Promise<void> {
    const { payload } = event;
    if (!event.organizationId) return;
    const organizationId = event.organizationId;
    // The cheapest refusals first: most sites have no lookup, most messages no keyword.
    const lookup = await this.dataLookup
      .find(organizationId, String(payload.site_id))
      .catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404) return undefined; // site removed
        throw error;
      });
    const rule = lookup && matchRule(lookup.settings.rules, payload.message.body);
    if (!lookup || !rule) return;
    if (!planIncludes((await this.organizations.get(organizationId)).plan, 'data_lookup')) return;
    const conversation = await this.conversations
      .get(organizationId, String(payload.conversation_id))
      .catch(() => undefined);
    if (!conversation) return;
    const visitor: VisitorPrincipal = {
      organizationId,
      siteId: conversation.siteId,
      visitorId: conversation.visitorId,
      allowedDomains: [],
    };
    const accountKey = await this.accountLogin.accountKey(visitor, lookup);
    if (accountKey === undefined) return;
    const messageId = String(payload.message.id);
    if (!(await this.repository.claimReply(organizationId, messageId, rule.id))) return;
    try {
      let body: string;
      try {
        const { rows, hasMore } = await this.dataLookup.page(lookup, rule, accountKey, 1);
        body = ruleReply(rule, rows, 1, hasMore);
      } catch (error) {
        // The owner database failed: the visitor still gets an answer.
        if (!(error instanceof AppError)) throw error;
        body = error.message;
      }
      await this.chat.postBotMessage(visitor, conversation.id, body);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) return; // closed meanwhile
      await this.repository.releaseReply(visitor.organizationId, messageId);
      throw error;
    }
  }

  /** Data lookup must be in the plan (403 `feature_not_in_plan`) and on for the site (403). */
  private async lookup(visitor: VisitorPrincipal): Promise<SiteLookup> {
    await this.organizations.requireFeature(visitor.organizationId, 'data_lookup');
    return this.dataLookup.require(visitor.organizationId, visitor.siteId);
  }

  private async ruleContext(
    visitor: VisitorPrincipal,
    input: { conversationId: string; ruleId: string },
  ) {
    const lookup = await this.lookup(visitor);
    await this.chat.requireOpen(visitor, input.conversationId);
    const rule = lookup.settings.rules.find((candidate) => candidate.id === input.ruleId);
    if (!rule)
      throw AppError.invalid(
        'rule_id',
        'The site has no data-lookup rule with this id.',
        'data_lookup_rule_unknown',
      );
    return { lookup, rule, accountKey: await this.accountLogin.accountKey(visitor, lookup) };
  }

  private loginRequired(lookup: SiteLookup): string {
    return lookup.settings.filter_record?.login_required_reply ?? 'Please log in first.';
  }
}
