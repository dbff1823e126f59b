const LOST_CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);
const LOST_CONNECTION_TEXT =
  /Connection terminated|connection terminated unexpectedly|Client has encountered a connection error/i;

/**
 * Whether an error only says that a connection to the database or Redis dropped. Some driver
 * clients inside libraries emit such errors with no listener attached, which Node turns into an
 * uncaught exception; the pools reconnect by themselves and readiness reports the outage, so the
 * process should log it and keep serving rather than die.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    (typeof code === 'string' && LOST_CONNECTION_CODES.has(code)) ||
    LOST_CONNECTION_TEXT.test(error.message)
  );
}
