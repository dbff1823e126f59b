import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { AuthenticatedRequest } from '../auth/auth.types';

/**
 * The HTTP request being served, for code far from the controller that needs to know who asked
 * and from where (the audit log's actor, client address, user agent and request id). Set once per
 * request after the body is parsed; the guards add the principal to the same object later.
 */
const storage = new AsyncLocalStorage<AuthenticatedRequest>();

export function requestContext(request: Request, _response: Response, next: NextFunction): void {
  storage.run(request as AuthenticatedRequest, next);
}

/** The request being served, or undefined in a job, a socket handler or the CLI. */
export function currentRequest(): AuthenticatedRequest | undefined {
  return storage.getStore();
}
