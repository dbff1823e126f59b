import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { envelope } from './envelope';

/**
 * What Node's HTTP parser refuses before any route runs (a NUL or another control character in
 * a header, a broken request line, headers too large) is answered in the envelope too, not with
 * Node's bare `400 Bad Request` without a body. The connection is closed: the parser cannot
 * tell where the next request would start.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(
      envelope(
        status,
        tooLarge ? 'The request headers are too large.' : 'The request is not valid HTTP.',
        'malformed_request',
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}
