import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { isUniqueViolation } from '../../database/sql';
import { type CannedResponseRow, CannedResponsesRepository } from './canned-responses.repository';

const TAKEN = 'Another canned response already uses this shortcut.';

/** Organization-wide reply texts an agent inserts with `/shortcut`. */
@Injectable()
export class CannedResponsesService {
  constructor(private readonly repository: CannedResponsesRepository) {}

  /** By shortcut; `prefix` keeps those starting with it (canned_responses_shortcut_key). */
  page(
    organizationId: string,
    prefix: string | undefined,
    page: { perPage: number; offset: number },
  ) {
    return this.repository.page(organizationId, prefix?.toLowerCase(), page);
  }

  /**
   * A canned response's body, or undefined when it is not the organization's: all another
   * feature (macros) reads of one (issue 32, point 7).
   */
  async bodyOf(organizationId: string, id: string): Promise<string | undefined> {
    return (await this.repository.find(organizationId, id))?.body;
  }

  async create(
    organizationId: string,
    userId: string,
    input: { shortcut: string; body: string },
  ): Promise<CannedResponseRow> {
    try {
      return await this.repository.insert(organizationId, { ...input, userId });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('shortcut', TAKEN, 'shortcut_taken');
      throw error;
    }
  }

  async update(
    organizationId: string,
    id: string,
    changes: { shortcut?: string; body?: string },
  ): Promise<CannedResponseRow> {
    try {
      const row = await this.repository.update(organizationId, id, changes);
      if (!row) throw AppError.notFound();
      return row;
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.invalid('shortcut', TAKEN, 'shortcut_taken');
      throw error;
    }
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(organizationId, id))) throw AppError.notFound();
  }
}
