import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { randomBase62 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { tooManyAttempts } from '../../common/rate-limit/rate-limited';
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
export const UNSENT_RETENTION_HOURS = 1;
const PURGE_EVERY_MS = 10 * 60 * 1000;
const HOUR_MS = 3_600_000;
const MB = 1024 * 1024;

const ACCEPTED_LIST = ACCEPTED_TYPES.map((type) => type.contentType).join(', ');

/**
 * Attachments: uploaded (checked and stored in PostgreSQL) by a visitor, an agent or an API key,
 * then carried by a message the same uploader sends, and downloaded by their unguessable address.
 */
@Injectable()
export class AttachmentsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AttachmentsService.name);
  private purgeTimer?: NodeJS.Timeout;
  private lastPurge = 0;

  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly maintenance: AttachmentsMaintenanceRepository,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /**
   * Uploads left unsent for an hour are deleted every ten minutes (on every instance; deleting
   * twice is harmless), and on an upload when the last purge is that old.
   */
  onModuleInit(): void {
    this.purgeTimer = setInterval(() => this.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }

  /**
   * Checks and stores an upload. Within the organization's STORAGE_QUOTA_MB_PER_ORG (413 past
   * it); a visitor's upload (`clientAddress` given) also within VISITOR_UNSENT_UPLOADS_MAX unsent
   * files and VISITOR_UPLOAD_MB_PER_HOUR and ADDRESS_UPLOAD_MB_PER_HOUR (429 past them), all
   * counted exactly: the organization's uploads take turns.
   */
  async upload(
    organizationId: string,
    uploader: Uploader,
    file: UploadedFile | undefined,
    clientAddress?: string,
  ): Promise<AttachmentDto> {
    if (!file) throw AppError.invalid('file', 'The file field is required.', 'required');
    if (file.size === 0) throw AppError.invalid('file', 'The file is empty.', 'file_empty');
    const fileName = safeFileName(file.originalname);
    const type = acceptedType(file.mimetype, fileName, file.buffer);
    if (!type) {
      throw AppError.invalid(
        'file',
        `The file type is not accepted, or the file's content does not match its type. Accepted types: ${ACCEPTED_LIST}.`,
        'file_type_refused',
      );
    }
    if (Date.now() - this.lastPurge >= PURGE_EVERY_MS) this.purge();
    const env = this.config.env;
    const row = await this.dataSource.transaction(async (manager) => {
      const stored = await this.attachments.lockStoredBytes(manager, organizationId);
      if (uploader.type === 'visitor' && clientAddress !== undefined) {
        const usage = await this.attachments.visitorUsage(
          manager,
          organizationId,
          uploader.id,
          clientAddress,
        );
        if (
          usage.unsent >= env.VISITOR_UNSENT_UPLOADS_MAX ||
          usage.visitorBytes + file.size > env.VISITOR_UPLOAD_MB_PER_HOUR * MB ||
          usage.addressBytes + file.size > env.ADDRESS_UPLOAD_MB_PER_HOUR * MB
        ) {
          throw tooManyAttempts(HOUR_MS);
        }
      }
      if (stored + file.size > env.STORAGE_QUOTA_MB_PER_ORG * MB) {
        throw new AppError(
          'payload_too_large',
          'The file storage of this organization is full: delete older conversations or ask the operator for a larger quota.',
          { reason: 'storage_full' },
        );
      }
      return this.attachments.insert(manager, organizationId, uploader, {
        token: `att_${randomBase62(40)}`,
        fileName,
        contentType: type.contentType,
        data: file.buffer,
        clientAddress: clientAddress ?? null,
      });
    });
    return this.toDto(row);
  }

  /**
   * A file that came with an incoming mail, stored for `uploader` under the upload rules: the
   * accepted types, ATTACHMENT_MAX_BYTES (413) and the organization's quota (413). The caller
   * then sends it in a message as any upload.
   */
  async storeFromMail(
    organizationId: string,
    uploader: Uploader,
    file: { fileName: string; contentType: string; content: Buffer },
  ): Promise<AttachmentDto> {
    if (file.content.length > this.config.env.ATTACHMENT_MAX_BYTES) {
      throw new AppError('payload_too_large', 'The file is larger than the attachment limit.', {
        reason: 'file_too_large',
      });
    }
    return this.upload(organizationId, uploader, {
      originalname: file.fileName,
      mimetype: file.contentType,
      size: file.content.length,
      buffer: file.content,
    });
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
        'attachment_not_yours',
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

  private purge(): void {
    this.lastPurge = Date.now();
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
