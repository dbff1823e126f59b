import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { renderError } from './render-error';

/**
 * The one place errors become responses. Known errors keep their code and text; anything else is
 * a 500 whose body says nothing about the cause, while the log keeps it with the request id.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const rendered = renderError(exception);
    if (rendered.unexpected) {
      this.logger.error({
        msg: 'unhandled error',
        reqId: request.id,
        err:
          exception instanceof Error
            ? { type: exception.name, message: exception.message, stack: exception.stack }
            : String(exception),
      });
    }
    if (response.headersSent) return;
    response.set(rendered.headers).status(rendered.status);
    // A replayed error goes out as the text first sent; res.json would write the same bytes.
    if (rendered.json !== undefined) response.type('json').send(rendered.json);
    else response.json(rendered.body);
  }
}
