import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
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
      if (isUniqueViolation(error)) throw AppError.invalid('name', TAKEN);
      throw error;
    }
  }

  async update(organizationId: string, id: string, changes: { name?: string; color?: string }) {
    try {
      const row = await this.repository.update(organizationId, id, changes);
      if (!row) throw AppError.notFound();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('name', TAKEN);
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
      );
    }
    const labels = await this.repository.onConversation(organizationId, conversationId);
    // Every open dashboard of the organization shows the change without a refresh.
    this.realtime.toOrganization(organizationId, 'conversation.labels', {
      conversation_id: Number(conversationId),
      labels: labels.map((label) => ({
        id: Number(label.id),
        name: label.name,
        color: label.color,
      })),
    });
    return labels;
  }
}
