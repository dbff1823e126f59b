import { Injectable, type OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUTH_METADATA, type AuthDeclaration } from '../../common/auth/auth.types';
import { routeHandlers } from '../../common/http/route-handlers';
import { IdempotencyInterceptor } from './idempotency.interceptor';

const WRITES = new Set<unknown>([RequestMethod.POST, RequestMethod.PATCH]);

/** The public API's POST and PATCH routes without `@Idempotent()`. */
export function routesWithoutIdempotency(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  reflector: Reflector,
): string[] {
  const missing: string[] = [];
  for (const { type, handler, label } of routeHandlers(discovery, scanner)) {
    if (!WRITES.has(Reflect.getMetadata(METHOD_METADATA, handler))) continue;
    const auth = reflector.getAllAndOverride<AuthDeclaration | undefined>(AUTH_METADATA, [
      handler,
      type,
    ]);
    if (auth?.kind !== 'api_key') continue;
    const interceptors = [
      ...((Reflect.getMetadata(INTERCEPTORS_METADATA, type) as unknown[] | undefined) ?? []),
      ...((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []),
    ];
    if (!interceptors.includes(IdempotencyInterceptor)) missing.push(label);
  }
  return missing;
}

/** Idempotency is per route (GETs carry no interceptor); the app refuses to start without it. */
@Injectable()
export class IdempotencyCoverageCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const missing = routesWithoutIdempotency(this.discovery, this.scanner, this.reflector);
    if (missing.length > 0) {
      throw new Error(
        `Public POST/PATCH routes without @Idempotent() (Idempotency-Key): ${missing.join(', ')}`,
      );
    }
  }
}
