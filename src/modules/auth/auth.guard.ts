import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  AUTH_METADATA,
  type AuthDeclaration,
  type AuthenticatedRequest,
} from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { AuthService } from './auth.service';
import { readSessionCookie } from './session-cookie';

function bearer(request: AuthenticatedRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The global guard. Every route declares how it is authenticated (`@Public`, `@Agent`, `@ApiKey`);
 * a route without a declaration is refused (and the start-up check refuses to boot with one).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const declaration = this.reflector.getAllAndOverride<AuthDeclaration | undefined>(
      AUTH_METADATA,
      [context.getHandler(), context.getClass()],
    );
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (!declaration) throw AppError.unauthenticated();
    switch (declaration.kind) {
      case 'public':
        return true;
      case 'agent': {
        const token = bearer(request) ?? readSessionCookie(request);
        const agent = token ? await this.auth.authenticate(token) : undefined;
        if (!agent) throw AppError.unauthenticated();
        if (declaration.role === 'admin' && agent.role === 'agent') {
          throw AppError.forbidden('This action requires the owner or admin role.');
        }
        request.agent = agent;
        return true;
      }
      case 'api_key': {
        const header = request.headers['x-service-key'];
        const presented =
          bearer(request) ?? (typeof header === 'string' ? header.trim() : undefined);
        const key = presented ? await this.apiKeys.authenticate(presented) : undefined;
        if (!key) throw AppError.unauthenticated();
        request.apiKey = key;
        if (declaration.ability && !key.abilities.includes(declaration.ability)) {
          throw new AppError(
            'missing_ability',
            `API key missing required ability: ${declaration.ability}`,
          );
        }
        return true;
      }
    }
  }
}
