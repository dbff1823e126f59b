import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { DiscoveryService, MetadataScanner } from '@nestjs/core';

/** A route of a controller: its class, its method's name and the method (where metadata sits). */
export interface RouteHandler {
  type: new (...args: never[]) => object;
  name: string;
  handler: () => unknown;
  /** `Controller.method`, as start-up checks name a route. */
  label: string;
}

/** Every route handler of every controller in the app, for the start-up checks that walk them. */
export function routeHandlers(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
): RouteHandler[] {
  const routes: RouteHandler[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    const type = wrapper.metatype as RouteHandler['type'] | undefined;
    if (!instance || !type) continue;
    for (const name of scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
      const handler = (instance as Record<string, unknown>)[name] as () => unknown;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      routes.push({ type, name, handler, label: `${type.name}.${name}` });
    }
  }
  return routes;
}
