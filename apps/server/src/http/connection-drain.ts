import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { closeAfterReply, isLingering } from './lingering-close.js';

/** How often a closing server looks again at its connections. */
const SWEEP_MS = 50;
/** Connections still busy get this long once draining began; then they are cut. */
export const DRAIN_MS = 5_000;
/**
 * A connection that has sent nothing at all this long after it was accepted is a spare one, opened ahead of need
 * (Chromium does this): it does not hold the drain. One that has sent anything is busy until it is answered.
 */
const SPARE_AFTER_MS = 1_000;

interface Connection {
  acceptedAt: number;
  /** Requests on it whose reply is not done. */
  open: number;
  /** It has carried a request. */
  used: boolean;
  /** `bytesRead` once its last request was read and answered: bytes past it are a request on its way. */
  readMark: number;
}

/** Requests that arrived while their server was draining: the closing guard answers them (http/framework-errors.ts). */
const lateRequests = new WeakSet<IncomingMessage>();

/** The request arrived while its server was draining its connections. */
export const arrivedWhileDraining = (req: IncomingMessage): boolean => lateRequests.has(req);

/**
 * Lets a closing server finish what its connections carry, then closes every connection, so that `app.close()`
 * returns and a SIGTERM loses no request (main.ts).
 *
 * A connection counts as busy from the moment it is accepted, not from its parsed request: a request the client has
 * sent may still be in the socket buffers, unread, when shutting down begins (under load, most of them). It stays
 * busy while it has a request being answered, bytes that have not become a request yet, or a refusal lingering
 * (http/lingering-close.ts); a new connection that has sent nothing at all for SPARE_AFTER_MS is a spare one.
 *
 * While draining: idle kept-alive connections stay open, and requests arriving on any connection are answered with
 * the 服务正在重启 envelope and `Connection: close` by the closing guard (http/framework-errors.ts), rather than being
 * cut (closing an idle connection races a client that is sending its next request on it). Once no connection is
 * busy, or DRAIN_MS after draining began, every connection is closed.
 */
export class ConnectionDrain {
  private readonly connections = new Map<Socket, Connection>();
  private readonly inflight = new Set<ServerResponse>();
  /** When draining began plus DRAIN_MS; null until then. */
  private cutAt: number | null = null;

  constructor(private readonly server: Server) {
    server.prependListener('connection', (socket: Socket) => {
      this.connections.set(socket, { acceptedAt: Date.now(), open: 0, used: false, readMark: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.cutAt !== null) {
        lateRequests.add(req);
        res.setHeader('connection', 'close');
      }
      this.inflight.add(res);
      const conn = this.connections.get(req.socket);
      if (conn) {
        conn.open += 1;
        conn.used = true;
      }
      res.once('close', () => {
        this.inflight.delete(res);
        if (!conn) return;
        conn.open -= 1;
        // A body refused before it was read is read off after the reply (Node's drain): mark the end of it.
        if (req.complete) conn.readMark = req.socket.bytesRead;
        else req.once('end', () => conn.open === 0 && (conn.readMark = req.socket.bytesRead));
      });
    });
  }

  /** Requests being answered now. */
  get size(): number {
    return this.inflight.size;
  }

  /** Connections that hold the drain now (see the class comment). */
  busyConnections(now = Date.now()): number {
    let busy = 0;
    for (const [socket, conn] of this.connections) {
      if (socket.destroyed) continue;
      if (conn.open > 0 || isLingering(socket) || socket.bytesRead > conn.readMark || (!conn.used && now - conn.acceptedAt < SPARE_AFTER_MS)) busy += 1;
    }
    return busy;
  }

  /** Starts draining (idempotent): called by the shutdown before it stops the app, and by the app's close. */
  begin(): void {
    if (this.cutAt !== null) return;
    const cutAt = Date.now() + DRAIN_MS;
    this.cutAt = cutAt;
    const sweep = setInterval(() => {
      const now = Date.now();
      if (now >= cutAt || this.busyConnections(now) === 0) this.server.closeAllConnections();
    }, SWEEP_MS);
    sweep.unref();
    this.server.once('close', () => clearInterval(sweep));
  }

  /**
   * Stops accepting connections, without closing the idle ones as `http.Server.close()` does (they stay to be answered
   * while draining). Connections the kernel has already completed are taken in first: closing the listening socket
   * resets every connection still waiting in its queue, and one turn of the event loop accepts them all.
   */
  async stopAccepting(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    if (this.server.listening) NetServer.prototype.close.call(this.server);
  }

  /**
   * Tells the clients of requests in flight not to reuse their connection (a shutdown, before it drains them); each
   * connection closes after its reply as a refusal's does (http/lingering-close.ts).
   */
  closeAfterReplies(): void {
    for (const res of this.inflight) if (!res.headersSent) closeAfterReply(res.req, res);
  }

  /** Resolves once no connection is busy, or when the drain cuts them (DRAIN_MS after `begin`). */
  async drained(): Promise<void> {
    const cutAt = this.cutAt ?? Date.now();
    while (this.busyConnections() > 0 && Date.now() < cutAt) await new Promise((r) => setTimeout(r, SWEEP_MS));
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
