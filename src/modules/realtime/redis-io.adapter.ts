import type { INestApplicationContext } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import { LeanIoAdapter, type SocketTransport } from './lean-io.adapter';

/**
 * Socket.IO over Redis pub/sub: a push from any instance reaches sockets on every instance, and
 * `fetchSockets` counts them all (DESIGN section 1, REDIS_URL).
 */
export class RedisIoAdapter extends LeanIoAdapter {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;

  constructor(app: INestApplicationContext, redisUrl: string, transports?: SocketTransport[]) {
    super(app, transports);
    this.publisher = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
    this.subscriber = this.publisher.duplicate();
  }

  async connect(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options);
    server.adapter(createAdapter(this.publisher, this.subscriber));
    return server;
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}
