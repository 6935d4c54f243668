import type { Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** How often a closing server looks again at its connections. */
const SWEEP_MS = 50;
/** Requests still being answered get this long once closing began; then their connections are cut. */
const DRAIN_MS = 5_000;

/**
 * Lets a closing server finish in-flight requests, then closes every connection, so that `app.close()` returns.
 *
 * Node's `server.close()` waits for every connection. Fastify closes the idle ones once, when closing begins; two kinds
 * outlived that and held the close for minutes (seen in CI as a test's `app.close()` timing out):
 * - a connection whose request was being answered then: its reply is kept alive and the connection idles after it;
 * - a connection the client opened ahead of need without sending a request yet (Chromium does this), which Node never
 *   counts as idle.
 * So, from the start of closing until the server has closed: idle connections are closed as they appear, and once no
 * request is in flight (or after DRAIN_MS) all connections are closed. Requests that arrive meanwhile are answered
 * with `Connection: close` (and turned away by the closing guard, http/framework-errors.ts).
 */
export class ConnectionDrain {
  private readonly inflight = new Set<ServerResponse>();
  /** When draining began plus DRAIN_MS; null until then. */
  private cutAt: number | null = null;

  constructor(private readonly server: Server) {
    server.prependListener('request', (_req, res: ServerResponse) => {
      if (this.cutAt !== null) res.setHeader('connection', 'close');
      this.inflight.add(res);
      res.once('close', () => this.inflight.delete(res));
    });
  }

  /** Requests being answered now. */
  get size(): number {
    return this.inflight.size;
  }

  /** Starts draining (idempotent): called by the shutdown before it stops the app, and by the app's close. */
  begin(): void {
    if (this.cutAt !== null) return;
    const cutAt = Date.now() + DRAIN_MS;
    this.cutAt = cutAt;
    const sweep = setInterval(() => {
      if (this.inflight.size === 0 || Date.now() >= cutAt) this.server.closeAllConnections();
      else this.server.closeIdleConnections();
    }, SWEEP_MS);
    sweep.unref();
    this.server.once('close', () => clearInterval(sweep));
  }

  /** Tells the clients of requests in flight not to reuse their connection (a shutdown, before it drains them). */
  closeAfterReplies(): void {
    for (const res of this.inflight) if (!res.headersSent) res.setHeader('connection', 'close');
  }

  /** Resolves once no request is in flight, or when the drain cuts them (DRAIN_MS after `begin`). */
  async drained(): Promise<void> {
    const cutAt = this.cutAt ?? Date.now();
    while (this.inflight.size > 0 && Date.now() < cutAt) await new Promise((r) => setTimeout(r, SWEEP_MS));
  }
}

const drains = new WeakMap<FastifyInstance, ConnectionDrain>();

/** The app's drain, begun by its `preClose` (the shutdown in main.ts begins it earlier). */
export function installConnectionDrain(app: FastifyInstance): void {
  const drain = new ConnectionDrain(app.server);
  drains.set(app, drain);
  app.addHook('preClose', async () => drain.begin());
}

/** The drain `installConnectionDrain` gave this app. */
export function connectionDrainOf(app: FastifyInstance): ConnectionDrain {
  const drain = drains.get(app);
  if (!drain) throw new Error('installConnectionDrain was not called on this app');
  return drain;
}
