import { createApiClient } from '../../../shared/api/client';
// The dashboard's words for failed calls (`ApiError` message and field errors), installed here.
import './errors';

/**
 * The dashboard's API client: same origin, the session cookie (HttpOnly, set at login) sent with
 * every call. Nothing else in the dashboard talks to the network (sockets: api/socket.ts).
 */
export const api = createApiClient({ baseUrl: '', credentials: 'same-origin' });

export { ApiError, unwrap } from '../../../shared/api/client';
