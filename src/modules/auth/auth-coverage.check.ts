import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUTH_METADATA } from '../../common/auth/auth.types';

/** Lists the routes that declare no authentication; the app refuses to start while any does. */
export function undeclaredRoutes(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  reflector: Reflector,
): string[] {
  const missing: string[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    const type = wrapper.metatype as (new (...args: never[]) => object) | undefined;
    if (!instance || !type) continue;
    for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
      const handler = (instance as Record<string, unknown>)[name] as () => unknown;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      if (!reflector.getAllAndOverride(AUTH_METADATA, [handler, type]))
        missing.push(`${type.name}.${name}`);
    }
  }
  return missing;
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
