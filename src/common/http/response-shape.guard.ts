import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RAW_RESPONSE, RESPONSE_MESSAGE } from './response-message.decorator';

/** How a route's success body is sent: in the envelope with `message`, or `raw` as it is. */
export interface ResponseShape {
  raw: boolean;
  message?: string;
}

export const RESPONSE_SHAPE = Symbol('responseShape');

export type ShapedRequest = { [RESPONSE_SHAPE]?: ResponseShape };

/**
 * Not an access check: the one hook that runs before every handler without costing what an
 * interceptor costs (Nest builds an Observable pipeline per request for a route with any). It
 * records on the request how the route's body is to be sent, which the response writer
 * (JsonExpressAdapter) and the idempotency interceptor read. Worked out once per route. That it
 * runs before the handler is pinned by test/e2e/framework-overrides.e2e-spec.ts.
 */
@Injectable()
export class ResponseShapeGuard implements CanActivate {
  private readonly shapes = new WeakMap<object, WeakMap<object, ResponseShape>>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    context.switchToHttp().getRequest<ShapedRequest>()[RESPONSE_SHAPE] = this.shapeOf(
      context.getHandler(),
      context.getClass(),
    );
    return true;
  }

  private shapeOf(
    handler: ReturnType<ExecutionContext['getHandler']>,
    type: ReturnType<ExecutionContext['getClass']>,
  ): ResponseShape {
    let byHandler = this.shapes.get(type);
    if (!byHandler) this.shapes.set(type, (byHandler = new WeakMap()));
    let shape = byHandler.get(handler);
    if (!shape) {
      const targets = [handler, type];
      const message = this.reflector.getAllAndOverride<string | undefined>(
        RESPONSE_MESSAGE,
        targets,
      );
      shape = {
        raw: this.reflector.getAllAndOverride<boolean | undefined>(RAW_RESPONSE, targets) === true,
        ...(message === undefined ? {} : { message }),
      };
      byHandler.set(handler, shape);
    }
    return shape;
  }
}
