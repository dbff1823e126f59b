import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { createHash } from 'node:crypto';
import type { Observable } from 'rxjs';
import { AppError } from '../../common/errors/app-error';
import { AppConfig } from '../../config/app-config';
import type { UploadedFile } from './attachments.service';

/** `10 MiB`, `512 KiB` or `1000 bytes`: the limit as a person reads it. */
export function readableSize(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const statusOf = (error: unknown): number | undefined => {
  const candidate = error as { getStatus?: () => unknown } | null;
  const status = typeof candidate?.getStatus === 'function' ? candidate.getStatus() : undefined;
  return typeof status === 'number' ? status : undefined;
};

/**
 * Multer (Nest's FileInterceptor, files kept in memory) reading the one file of an upload in the
 * multipart field `file`, with the ATTACHMENT_MAX_BYTES limit. Its errors become the envelope's:
 * a file past the limit is a 413, a body that is not such a form a 422 naming `file`. The file's
 * name, size and digest join the body, so an idempotent replay compares the file too.
 */
@Injectable()
export class AttachmentUploadInterceptor implements NestInterceptor {
  private readonly multer: NestInterceptor;
  private readonly maxBytes: number;

  constructor(config: AppConfig) {
    this.maxBytes = config.env.ATTACHMENT_MAX_BYTES;
    const Multer = FileInterceptor('file', {
      limits: { fileSize: this.maxBytes, files: 1, fields: 10, parts: 11, fieldSize: 4096 },
      defParamCharset: 'utf8',
    });
    this.multer = new Multer();
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    let handled: Observable<unknown> | Promise<Observable<unknown>>;
    try {
      handled = await this.multer.intercept(context, next);
    } catch (error) {
      const status = statusOf(error);
      if (status === 413) {
        throw new AppError(
          'payload_too_large',
          `The file is larger than the ${readableSize(this.maxBytes)} limit.`,
          { reason: 'file_too_large' },
        );
      }
      if (status !== undefined && status < 500) {
        throw AppError.invalid(
          'file',
          'Send the request as multipart/form-data with one file in the field "file".',
          'required',
        );
      }
      throw error;
    }
    const request = context
      .switchToHttp()
      .getRequest<{ file?: UploadedFile; body?: Record<string, unknown> }>();
    if (request.file) {
      request.body = {
        ...(request.body ?? {}),
        file: {
          name: request.file.originalname,
          type: request.file.mimetype,
          sha256: createHash('sha256').update(request.file.buffer).digest('hex'),
        },
      };
    }
    return handled;
  }
}
