import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { DATABASE_RUNTIME, type DatabaseRuntime } from '../../database/database-runtime';
import { handTyped, sql } from '../../database/sql';

const CHANNEL = 'cache_invalidation';
/** Whether this process listens (the service) or only publishes (the CLI). */
export const INVALIDATION_LISTEN = Symbol('INVALIDATION_LISTEN');
const RETRY_MS = 1_000;

type Handler = (id: string) => void;

/**
 * Tells every instance that something it may keep in memory changed (issue 33: a revoked API
 * key), within a round trip: Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY,
 * each on a connection of its own. While that connection is down a notification could be missed,
 * so `live` is false and caches must not answer from memory; when it is back, they start afresh.
 */
@Injectable()
export class InvalidationBus implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('invalidation');
  private readonly handlers = new Map<string, Handler[]>();
  private readonly resets: (() => void)[] = [];
  private listening = false;
  private stopped = false;
  private retry?: ReturnType<typeof setTimeout>;
  private subscriber?: Client | Redis;
  private publisher?: Redis;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    @Inject(DATABASE_RUNTIME) private readonly database: DatabaseRuntime,
    @Inject(INVALIDATION_LISTEN) private readonly listens: boolean,
  ) {}

  /** Whether a notification sent now reaches this instance. */
  get live(): boolean {
    return this.listening;
  }

  /** Calls `handler` with the id of each `topic` notification (from any instance, this one too). */
  on(topic: string, handler: Handler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  /** Calls `reset` whenever notifications may have been missed (the connection came back). */
  onReset(reset: () => void): void {
    this.resets.push(reset);
  }

  async publish(topic: string, id: string): Promise<void> {
    const message = `${topic}:${id}`;
    const redisUrl = this.config.env.REDIS_URL;
    if (redisUrl) {
      this.publisher ??= new Redis(redisUrl, { maxRetriesPerRequest: 2 });
      await this.publisher.publish(CHANNEL, message);
      return;
    }
    await sql(this.dataSource, handTyped<{ pg_notify: void }>`SELECT pg_notify($1, $2)`, [
      CHANNEL,
      message,
    ]);
  }

  onModuleInit(): void {
    if (this.listens) void this.listen();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.listening = false;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber instanceof Redis) subscriber.disconnect();
    else await subscriber?.end().catch(() => undefined);
    this.publisher?.disconnect();
  }

  private deliver(message: string): void {
    const split = message.indexOf(':');
    if (split < 0) return;
    const topic = message.slice(0, split);
    const id = message.slice(split + 1);
    for (const handler of this.handlers.get(topic) ?? []) handler(id);
  }

  private connected(): void {
    this.listening = true;
    for (const reset of this.resets) reset();
  }

  /** The subscriber `from` failed or closed (a stale one's late events are ignored). */
  private lost(from: Client | Redis, error?: unknown): void {
    if (from !== this.subscriber) return;
    this.listening = false;
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber instanceof Redis) subscriber.disconnect();
    else subscriber?.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({
      msg: 'invalidation listener lost; caches answer from the database until it is back',
      err: error instanceof Error ? error.message : 'closed',
    });
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.listen();
    }, RETRY_MS);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const redisUrl = this.config.env.REDIS_URL;
    try {
      if (redisUrl) {
        // Reconnects are handled here (a missed message needs a reset), not by ioredis.
        const redis = new Redis(redisUrl, {
          lazyConnect: true,
          maxRetriesPerRequest: 1,
          retryStrategy: () => null,
        });
        this.subscriber = redis;
        redis.on('message', (_channel: string, message: string) => this.deliver(message));
        redis.on('error', (error: unknown) => this.lost(redis, error));
        redis.on('end', () => this.lost(redis));
        await redis.connect();
        await redis.subscribe(CHANNEL);
      } else {
        const client = new Client({ connectionString: this.database.url });
        this.subscriber = client;
        client.on('notification', (note) => note.payload && this.deliver(note.payload));
        client.on('error', (error) => this.lost(client, error));
        client.on('end', () => this.lost(client));
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      }
      if (!this.stopped) this.connected();
    } catch (error) {
      if (this.subscriber) this.lost(this.subscriber, error);
    }
  }
}
