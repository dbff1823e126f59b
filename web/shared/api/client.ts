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

/** The error envelope every failed call answers with (DESIGN section 3). */
export interface ApiErrorBody {
  status: false;
  message: string;
  code: string;
  error_code?: string;
  errors?: Record<string, string[]>;
}

/** A failed call, carrying the envelope so a form can show the message of each field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(body?.message ?? `Request failed (${status})`);
  }

  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, messages] of Object.entries(this.body?.errors ?? {})) {
      if (messages[0]) out[field] = messages[0];
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
