import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/** Headers and fields whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-key"]',
  'req.headers["x-service-visitor-login-secret"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.otp',
];

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'support-chat' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  });
}

/** Nest's start-up chatter (one line per module and route) is debug, not info. */
const QUIET_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
]);

/** Nest's logger interface on top of pino, so framework and application lines share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(requested: pino.Level, message: unknown, rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const level =
      requested === 'info' && context && QUIET_CONTEXTS.has(context) ? 'debug' : requested;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message && typeof message === 'object' && !(message instanceof Error)) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else {
      const stack = level === 'error' && typeof rest[0] === 'string' ? { stack: rest[0] } : {};
      this.logger[level]({ ...fields, ...stack }, String(message));
    }
  }
}
