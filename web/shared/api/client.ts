import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

/**
 * The one way the browser apps talk to the API: typed from the committed OpenAPI document
 * (`npm run web:types`), so a changed route breaks the build instead of the user.
 */
export type ApiClient = Client<paths>;
export type Schemas = components['schemas'];

export function createApiClient(options: ClientOptions = {}): ApiClient {
  return createClient<paths>(options);
}

/** The error envelope every failed call answers with (DESIGN section 3, issue 32). */
export interface ApiErrorBody {
  status: false;
  message: string;
  code: string;
  error_code?: string;
  /** The domain slug of the error: what an app words from its own catalog. */
  error_reason?: string;
  errors?: Record<string, string[]>;
  /** The slug of each text of `errors`, in the same order. */
  field_reasons?: Record<string, string[]>;
}

/** An app's sentence for an error slug, or undefined when its catalog has none. */
export type ReasonSentence = (reason: string) => string | undefined;

let sentenceOf: ReasonSentence = () => undefined;

/**
 * Gives failed calls the app's words: from now on an `ApiError`'s `message` and `fieldErrors()`
 * are the app's sentences for `error_reason` and each field's slug, and the server's English text
 * only for a slug the app's catalog lacks. Each app calls it once, with its catalog.
 */
export function setReasonSentences(lookup: ReasonSentence): void {
  sentenceOf = lookup;
}

/** A failed call, carrying the envelope so a form can show the message of each field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(
      (body?.error_reason && sentenceOf(body.error_reason)) ||
        (body?.message ?? `Request failed (${status})`),
    );
  }

  /** The domain slug of the error, if the server named one. */
  get reason(): string | undefined {
    return this.body?.error_reason;
  }

  /** The slug of the first text of each refused field. */
  fieldReasons(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const field of Object.keys(this.body?.errors ?? {})) {
      const reason = this.body?.field_reasons?.[field]?.[0];
      if (reason) out[field] = reason;
    }
    return out;
  }

  /** The sentence for each refused field: the app's for its slug, else the server's text. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    const reasons = this.fieldReasons();
    for (const [field, messages] of Object.entries(this.body?.errors ?? {})) {
      const sentence = reasons[field] && sentenceOf(reasons[field]);
      if (sentence) out[field] = sentence;
      else if (messages[0]) out[field] = messages[0];
    }
    return out;
  }
}

/** Unwraps an openapi-fetch result: the data, or an `ApiError` thrown with the envelope. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok || data === undefined) {
    throw new ApiError(response.status, error as ApiErrorBody | undefined);
  }
  return data;
}
