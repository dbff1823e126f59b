import { Module } from '@nestjs/common';
import { RealtimeService } from './realtime.service';

/**
 * Pushes to connected sockets after a commit. The gateways live beside the features they serve
 * (`conversations/widget.gateway.ts`, `conversations/agent.gateway.ts`) and attach their namespaces here.
 */
@Module({ providers: [RealtimeService], exports: [RealtimeService] })
export class RealtimeModule {}
