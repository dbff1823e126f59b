/** The four fields every JSON response carries (DESIGN section 3), plus `error_code` on errors. */
export interface Envelope {
  status: boolean;
  message: string;
  code: string;
  datetime: string;
  error_code?: string;
}

export function envelope(httpStatus: number, message: string, errorCode?: string): Envelope {
  const head: Envelope = {
    status: httpStatus < 400,
    message,
    code: String(httpStatus),
    datetime: new Date().toISOString(),
  };
  if (errorCode) head.error_code = errorCode;
  return head;
}

/** The default success text for a status, used when a route does not name its own. */
export function defaultMessage(httpStatus: number): string {
  if (httpStatus === 201) return 'Created.';
  if (httpStatus === 202) return 'Accepted.';
  return 'OK';
}

/** A success body in its envelope: the route's message (or the status's default), then its fields. */
export function enveloped(
  httpStatus: number,
  message: string | undefined,
  body: unknown,
): Record<string, unknown> {
  const fields = body && typeof body === 'object' ? body : {};
  return { ...envelope(httpStatus, message ?? defaultMessage(httpStatus)), ...fields };
}

/**
 * A body already in its envelope and serialized (an idempotent response, or its replay): the
 * text is sent as it is, so a replay is the first response byte for byte.
 */
export class Enveloped {
  constructor(readonly json: string) {}
}
