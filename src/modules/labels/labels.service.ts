import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import type { SharedTransaction } from '../../database/shared-transaction';
import { isUniqueViolation } from '../../database/sql';
import { RealtimeService } from '../realtime/realtime.service';
import { type LabelRow, LabelsRepository } from './labels.repository';

const TAKEN = 'Another label already has this name.';

/** Organization labels and the labels on conversations. */
@Injectable()
export class LabelsService {
  constructor(
    private readonly repository: LabelsRepository,
    private readonly realtime: RealtimeService,
  ) {}

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.repository.page(organizationId, page);
  }

  async create(organizationId: string, input: { name: string; color: string }) {
    try {
      return await this.repository.insert(organizationId, input);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('name', TAKEN, 'name_taken');
      throw error;
    }
  }

  async update(organizationId: string, id: string, changes: { name?: string; color?: string }) {
    try {
      const row = await this.repository.update(organizationId, id, changes);
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

  async setOnConversation(
    organizationId: string,
    conversationId: string,
    labelIds: number[],
  ): Promise<LabelRow[]> {
    const ids = [...new Set(labelIds.map(String))];
    const result = await this.repository.replaceOnConversation(organizationId, conversationId, ids);
    if (!result) throw AppError.notFound();
    if (result.unknown.length > 0) {
      throw AppError.invalid(
        'label_ids',
        `These labels do not exist in your organization: ${result.unknown.join(', ')}.`,
        'labels_unknown',
      );
    }
    const labels = await this.repository.onConversation(organizationId, conversationId);
    this.pushLabels(organizationId, conversationId, labels);
    return labels;
  }

  /** Which of these ids are not the organization's labels. */
  unknownIds(organizationId: string, labelIds: number[]): Promise<string[]> {
    return this.repository.unknownIds(organizationId, [...new Set(labelIds.map(String))]);
  }

  /**
   * Adds labels to a conversation (keeping those it has) inside a shared transaction whose
   * caller has locked the conversation; the dashboards hear of it once it commits. Labels that are
   * not the organization's are a 409 (a macro naming a label deleted since).
   */
  async addOnConversation(
    tx: SharedTransaction,
    organizationId: string,
    conversationId: string,
    labelIds: number[],
  ): Promise<void> {
    const ids = [...new Set(labelIds.map(String))];
    const result = await this.repository.addOnConversation(
      tx.manager,
      organizationId,
      conversationId,
      ids,
    );
    if (result.unknown.length > 0) {
      throw AppError.conflict(
        `These labels no longer exist: ${result.unknown.join(', ')}.`,
        'labels_unknown',
      );
    }
    const labels = await this.repository.onConversation(organizationId, conversationId, tx.manager);
    tx.afterCommit.push(() => this.pushLabels(organizationId, conversationId, labels));
  }

  /** Every open dashboard of the organization shows the change without a refresh. */
  private pushLabels(organizationId: string, conversationId: string, labels: LabelRow[]) {
    this.realtime.toOrganization(organizationId, 'conversation.labels', {
      conversation_id: Number(conversationId),
      labels: labels.map((label) => ({
        id: Number(label.id),
        name: label.name,
        color: label.color,
      })),
    });
  }
}
