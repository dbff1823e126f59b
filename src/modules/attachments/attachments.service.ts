import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { randomBase62 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import type { AttachmentDto } from './attachments.dto';
import { AttachmentsMaintenanceRepository } from './attachments-maintenance.repository';
import {
  type AttachmentRow,
  AttachmentsRepository,
  type StoredFile,
  type Uploader,
} from './attachments.repository';
import { ACCEPTED_TYPES, acceptedType, safeFileName } from './file-types';

export type { Uploader } from './attachments.repository';

/** The part of a multipart upload this service reads (multer's in-memory file). */
export interface UploadedFile {
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** Most attachments one message carries. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;

/** Uploads not sent in a message within this many hours are deleted. */
export const UNSENT_RETENTION_HOURS = 24;
const PURGE_EVERY_MS = 10 * 60 * 1000;

const ACCEPTED_LIST = ACCEPTED_TYPES.map((type) => type.contentType).join(', ');

/**
 * Attachments: uploaded (checked and stored in PostgreSQL) by a visitor, an agent or an API key,
 * then carried by a message the same uploader sends, and downloaded by their unguessable address.
 */
@Injectable()
export class AttachmentsService {
  private readonly logger = new Logger(AttachmentsService.name);
  private lastPurge = 0;

  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly maintenance: AttachmentsMaintenanceRepository,
    private readonly config: AppConfig,
  ) {}

  async upload(
    organizationId: string,
    uploader: Uploader,
    file: UploadedFile | undefined,
  ): Promise<AttachmentDto> {
    if (!file) throw AppError.invalid('file', 'The file field is required.');
    if (file.size === 0) throw AppError.invalid('file', 'The file is empty.');
    const fileName = safeFileName(file.originalname);
    const type = acceptedType(file.mimetype, fileName, file.buffer);
    if (!type) {
      throw AppError.invalid(
        'file',
        `The file type is not accepted, or the file's content does not match its type. Accepted types: ${ACCEPTED_LIST}.`,
      );
    }
    this.purgeNowAndThen();
    const row = await this.attachments.insert(organizationId, uploader, {
      token: `att_${randomBase62(40)}`,
      fileName,
      contentType: type.contentType,
      data: file.buffer,
    });
    return this.toDto(row);
  }

  /**
   * Takes the uploader's unsent attachments for a message being written in `manager`'s
   * transaction. Any id that is not such an attachment (unknown, of another organization or
   * uploader, or already sent) is a 422 naming `attachment_ids`.
   */
  async take(
    manager: EntityManager,
    organizationId: string,
    uploader: Uploader,
    ids: number[],
  ): Promise<{ items: AttachmentDto[]; ids: string[] }> {
    const wanted = [...new Set(ids.map(String))];
    if (wanted.length === 0) return { items: [], ids: [] };
    const rows = await this.attachments.unsent(manager, organizationId, uploader, wanted);
    if (rows.length !== wanted.length) {
      throw AppError.invalid(
        'attachment_ids',
        'Each attachment must be one you uploaded and have not sent yet.',
      );
    }
    return { items: rows.map((row) => this.toDto(row)), ids: wanted };
  }

  /** Records that the taken attachments belong to the stored message. */
  attach(
    manager: EntityManager,
    organizationId: string,
    ids: string[],
    messageId: string,
  ): Promise<void> {
    return this.attachments.attach(manager, organizationId, ids, messageId);
  }

  async download(token: string): Promise<StoredFile> {
    const file = /^att_[A-Za-z0-9]{40}$/.test(token)
      ? await this.attachments.byToken(token)
      : undefined;
    if (!file) throw AppError.notFound();
    return file;
  }

  /** At most every ten minutes, on an upload: drops uploads left unsent for a day. */
  private purgeNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    this.maintenance.purgeUnsent(UNSENT_RETENTION_HOURS).catch((error: unknown) => {
      this.logger.warn({ msg: 'unsent attachments not purged', err: String(error) });
    });
  }

  private toDto(row: AttachmentRow): AttachmentDto {
    return {
      id: Number(row.id),
      file_name: row.file_name,
      content_type: row.content_type,
      size: Number(row.size),
      url: `${this.config.publicUrl}/api/attachments/${row.token}`,
    };
  }
}
