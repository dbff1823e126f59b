import { Global, Module } from '@nestjs/common';
import { RealtimeService } from './realtime.service';

/** Global, so any feature can push after its commit without importing the gateways. */
@Global()
@Module({ providers: [RealtimeService], exports: [RealtimeService] })
export class RealtimeModule {}
