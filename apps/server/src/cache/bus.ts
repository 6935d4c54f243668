import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** What a cache does with one invalidation message: `message` names what changed (a key, or `*` for everything). */
export type InvalidationHandler = (message: string) => void;

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * Tells every process that something a cache holds has changed. One process (no Redis): the handlers run at once, in
 * process. Several processes (REDIS_URL): the handlers of this process run at once and the message goes out over Redis
 * pub/sub to the others. Publish only after the write has committed, or another process may reload the old value.
 *
 * Pub/sub does not queue: a process whose subscription was down may have missed messages, so when the subscription comes
 * back every cache that listens with `onReset` drops everything it holds.
 */
export interface InvalidationBus {
  /** 'redis': other processes hear what is published. */
  readonly kind: 'in-process' | 'redis';
  publish(topic: string, message: string): void;
  subscribe(topic: string, handler: InvalidationHandler): void;
  /** Called when messages may have been missed (the Redis subscription was re-established). */
  onReset(handler: () => void): void;
  /** Resolves once the subscription is live (at once in process); tests and start-up wait for it. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

class LocalHandlers {
  private readonly topics = new Map<string, InvalidationHandler[]>();
  readonly resets: (() => void)[] = [];

  add(topic: string, handler: InvalidationHandler) {
    this.topics.set(topic, [...(this.topics.get(topic) ?? []), handler]);
  }

  run(topic: string, message: string) {
    for (const h of this.topics.get(topic) ?? []) h(message);
  }

  reset() {
    for (const h of this.resets) h();
  }
}

/** One process: nobody else to tell. */
export class InProcessBus implements InvalidationBus {
  readonly kind = 'in-process' as const;
  private readonly handlers = new LocalHandlers();

  publish(topic: string, message: string): void {
    this.handlers.run(topic, message);
  }

  subscribe(topic: string, handler: InvalidationHandler): void {
    this.handlers.add(topic, handler);
  }

  onReset(handler: () => void): void {
    this.handlers.resets.push(handler);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {}
}

interface Envelope {
  /** The sending process: it already ran its own handlers. */
  o: string;
  t: string;
  m: string;
}

/** Several processes: one Redis channel carries every topic; a second connection subscribes (a subscriber cannot publish). */
export class RedisBus implements InvalidationBus {
  readonly kind = 'redis' as const;
  private readonly origin = randomUUID();
  private readonly handlers = new LocalHandlers();
  private readonly channel: string;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<void>;
  private closed = false;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    private readonly log: Logger,
  ) {
    this.channel = `${prefix}:cache-invalidate`;
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', (err: Error) => {
      if (!this.closed) this.log.warn({ err: err.message }, 'cache invalidation subscriber error');
    });
    this.subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      let msg: Envelope;
      try {
        msg = JSON.parse(raw) as Envelope;
      } catch {
        return;
      }
      if (msg.o !== this.origin) this.handlers.run(msg.t, msg.m);
    });
    let first = true;
    // ioredis re-subscribes after a reconnect and emits `ready` again: what was published meanwhile is lost.
    this.subscriber.on('ready', () => {
      if (first) {
        first = false;
        return;
      }
      this.handlers.reset();
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(() => undefined);
    // A failed first subscribe is retried by ioredis on reconnect; callers awaiting ready() see the error.
    this.subscribed.catch(() => undefined);
  }

  publish(topic: string, message: string): void {
    this.handlers.run(topic, message);
    const payload: Envelope = { o: this.origin, t: topic, m: message };
    this.redis.publish(this.channel, JSON.stringify(payload)).catch((err: unknown) => {
      // The others keep their copy until its TTL ends; nothing here can do better than say so.
      this.log.warn({ err: (err as Error).message, topic }, 'cache invalidation not sent to other processes');
    });
  }

  subscribe(topic: string, handler: InvalidationHandler): void {
    this.handlers.add(topic, handler);
  }

  onReset(handler: () => void): void {
    this.handlers.resets.push(handler);
  }

  ready(): Promise<void> {
    return this.subscribed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscriber.disconnect();
  }
}

/** In process without Redis; over Redis pub/sub (prefix-scoped channel) with it. */
export function createInvalidationBus(redis: Redis | null, prefix: string, log: Logger): InvalidationBus {
  return redis ? new RedisBus(redis, prefix, log) : new InProcessBus();
}
