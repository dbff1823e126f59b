import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUTH_METADATA } from '../../common/auth/auth.types';
import { routeHandlers } from '../../common/http/route-handlers';

/** Lists the routes that declare no authentication; the app refuses to start while any does. */
export function undeclaredRoutes(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  reflector: Reflector,
): string[] {
  return routeHandlers(discovery, scanner)
    .filter(({ handler, type }) => !reflector.getAllAndOverride(AUTH_METADATA, [handler, type]))
    .map((route) => route.label);
}

@Injectable()
export class AuthCoverageCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const missing = undeclaredRoutes(this.discovery, this.scanner, this.reflector);
    if (missing.length > 0) {
      throw new Error(
        `Routes without an authentication declaration (@Public/@Agent/@ApiKey): ${missing.join(', ')}`,
      );
    }
  }
}
