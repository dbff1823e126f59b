import { Injectable } from '@nestjs/common';
import { AppError, type FieldReasons } from '../../common/errors/app-error';
import { isUniqueViolation } from '../../database/sql';
import { AgentsService } from '../agents/agents.service';
import { CannedResponsesService } from '../canned-responses/canned-responses.service';
import { type Actor, AgentChatService } from '../conversations/agent-chat.service';
import { LabelsService } from '../labels/labels.service';
import type { MacroActionDto } from './macros.dto';
import { type MacroAction, type MacroRow, MacrosRepository } from './macros.repository';

const TAKEN = 'Another macro already has this name.';

/**
 * Macros: named sequences of actions on a conversation. Owners and admins keep them; every member
 * runs them, as themselves, in one transaction: all the actions take effect or none does.
 */
@Injectable()
export class MacrosService {
  constructor(
    private readonly repository: MacrosRepository,
    private readonly chat: AgentChatService,
    private readonly labels: LabelsService,
    private readonly canned: CannedResponsesService,
    private readonly agents: AgentsService,
  ) {}

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.repository.page(organizationId, page);
  }

  async create(
    organizationId: string,
    userId: string,
    input: { name: string; actions: MacroActionDto[] },
  ): Promise<MacroRow> {
    const actions = await this.checked(organizationId, input.actions);
    try {
      return await this.repository.insert(organizationId, {
        name: input.name.trim(),
        actions,
        userId,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('name', TAKEN, 'name_taken');
      throw error;
    }
  }

  async update(
    organizationId: string,
    id: string,
    changes: { name?: string; actions?: MacroActionDto[] },
  ): Promise<MacroRow> {
    const actions =
      changes.actions === undefined
        ? undefined
        : await this.checked(organizationId, changes.actions);
    try {
      const row = await this.repository.update(organizationId, id, {
        name: changes.name?.trim(),
        actions,
      });
      if (!row) throw AppError.notFound();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('name', TAKEN, 'name_taken');
      throw error;
    }
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(organizationId, id))) throw AppError.notFound();
  }

  /**
   * Runs the macro on the conversation as the agent: one transaction, the conversation locked
   * first; an action that cannot be done (a reply to a closed chat, a label deleted since) undoes
   * those before it and answers its error. The live pushes follow the commit.
   */
  async run(actor: Actor & { agentUserId: number }, macroId: string, conversationId: string) {
    const macro = await this.repository.find(actor.organizationId, macroId);
    if (!macro) throw AppError.notFound();
    const replies = await this.replyBodies(actor.organizationId, macro.actions);
    await this.chat.inOneTransaction(async (tx) => {
      await this.chat.hold(actor, conversationId, tx);
      for (const action of macro.actions) {
        switch (action.type) {
          case 'reply':
            await this.chat.reply(
              actor,
              conversationId,
              {
                body: replies.get(action.canned_response_id) ?? '',
                uploader: { type: 'agent', id: String(actor.agentUserId) },
              },
              tx,
            );
            break;
          case 'add_labels':
            await this.labels.addOnConversation(
              tx,
              actor.organizationId,
              conversationId,
              action.label_ids,
            );
            break;
          case 'assign':
            await this.chat.assign(
              actor,
              conversationId,
              action.agent_id ?? undefined,
              undefined,
              tx,
            );
            break;
          case 'unassign':
            await this.chat.unassign(actor, conversationId, tx);
            break;
          case 'set_status':
            if (action.status === 'open') {
              const row = await this.chat.reopen(actor, conversationId, tx);
              if (row.snoozedUntil) await this.chat.snooze(actor, conversationId, null, tx);
            } else {
              const until = new Date(Date.now() + action.snooze_minutes * 60_000);
              await this.chat.snooze(actor, conversationId, until, tx);
            }
            break;
          case 'close':
            await this.chat.close(actor, conversationId, tx);
            break;
        }
      }
    });
    return {
      macro_id: Number(macro.id),
      conversation_id: Number(conversationId),
      actions_run: macro.actions.length,
    };
  }

  /** The canned responses' bodies the macro sends; one deleted since is a 409. */
  private async replyBodies(
    organizationId: string,
    actions: MacroAction[],
  ): Promise<Map<number, string>> {
    const bodies = new Map<number, string>();
    for (const action of actions) {
      if (action.type !== 'reply' || bodies.has(action.canned_response_id)) continue;
      const body = await this.canned.bodyOf(organizationId, String(action.canned_response_id));
      if (body === undefined) {
        throw AppError.conflict(
          "The macro's canned response no longer exists: edit the macro.",
          'macro_response_missing',
        );
      }
      bodies.set(action.canned_response_id, body);
    }
    return bodies;
  }

  /**
   * Keeps only the fields each action's type uses, and checks what they name is the
   * organization's: a 422 naming the action's field otherwise.
   */
  private async checked(organizationId: string, input: MacroActionDto[]): Promise<MacroAction[]> {
    const errors: Record<string, string[]> = {};
    const reasons: FieldReasons = {};
    const actions: MacroAction[] = [];
    for (const [index, action] of input.entries()) {
      const field = (name: string) => `actions.${index}.${name}`;
      switch (action.type) {
        case 'reply': {
          const id = action.canned_response_id as number;
          if ((await this.canned.bodyOf(organizationId, String(id))) === undefined) {
            errors[field('canned_response_id')] = ['The selected canned response does not exist.'];
            reasons[field('canned_response_id')] = ['macro_response_missing'];
          }
          actions.push({ type: 'reply', canned_response_id: id });
          break;
        }
        case 'add_labels': {
          const ids = [...new Set(action.label_ids as number[])];
          if ((await this.labels.unknownIds(organizationId, ids)).length > 0) {
            errors[field('label_ids')] = ['One of the selected labels does not exist.'];
            reasons[field('label_ids')] = ['labels_unknown'];
          }
          actions.push({ type: 'add_labels', label_ids: ids });
          break;
        }
        case 'assign': {
          const id = action.agent_id ?? null;
          if (id !== null && !(await this.agents.findMember(organizationId, String(id)))) {
            errors[field('agent_id')] = [
              'The selected agent is not a member of this organization.',
            ];
            reasons[field('agent_id')] = ['agent_not_in_organization'];
          }
          actions.push({ type: 'assign', agent_id: id });
          break;
        }
        case 'set_status':
          actions.push(
            action.status === 'snoozed'
              ? {
                  type: 'set_status',
                  status: 'snoozed',
                  snooze_minutes: action.snooze_minutes as number,
                }
              : { type: 'set_status', status: 'open' },
          );
          break;
        case 'unassign':
        case 'close':
          actions.push({ type: action.type });
          break;
      }
    }
    if (Object.keys(errors).length > 0) throw AppError.validation(errors, reasons);
    return actions;
  }
}
