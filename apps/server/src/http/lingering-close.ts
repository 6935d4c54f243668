import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Closing a connection the client is still sending on (a refused upload, an over-limit body, a URL over the header
 * limit) must not lose the answer. Node closes a `Connection: close` socket as soon as the reply is flushed; with the
 * client's bytes still arriving the kernel answers them with a reset, which can drop our reply before it leaves, and
 * the client's next write fails before it has read what did arrive (a 1 GiB upload refused for its type lost the
 * envelope 3 times in 10). So a refusal here: writes the reply with `Connection: close`, ends our side (FIN: the
 * client sees the answer and the end), keeps reading and dropping what the client still sends, and destroys the
 * socket once the client closes its side too, or after LINGER_MS, or after LINGER_BYTES, whichever comes first.
 * The HTTP parser is taken off the socket while it lingers: what follows is the rest of a refused request.
 */

/** How long a refused connection keeps reading (and dropping) what its client still sends. */
export const LINGER_MS = 5_000;
/** How much it reads at most: far more than it takes the client to see our answer, far less than a refused upload. */
export const LINGER_BYTES = 64 * 1024 * 1024;
/** A body up to this size (nearly always) arrives with its headers: Node reads it off cheaply, the connection is kept. */
const SMALL_BODY_BYTES = 64 * 1024;

const lingering = new WeakSet<Socket>();
const closing = new WeakSet<ServerResponse>();

/** The socket is lingering after a refusal (its owner: nothing else may write to or destroy it meanwhile). */
export const isLingering = (socket: Socket): boolean => lingering.has(socket);

/**
 * The request's body is still on its way and too large (or of unknown length) for Node to read off after the reply
 * so that the connection can be reused: reading it would mean receiving a whole refused upload.
 */
export function bodyStillComing(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const h = req.headers;
  if (h['transfer-encoding'] !== undefined) return true;
  if (h['content-length'] === undefined) return false;
  const length = Number(h['content-length']);
  return !Number.isFinite(length) || length > SMALL_BODY_BYTES;
}

/**
 * The reply to `req` closes the connection: `Connection: close` (when its headers are not sent yet), then, once it is
 * written, the half-close and linger above. Idempotent.
 */
export function closeAfterReply(req: IncomingMessage, res: ServerResponse): void {
  if (closing.has(res)) return;
  closing.add(res);
  const socket = req.socket as Socket & { destroySoon?: () => void };
  if (!res.headersSent) res.setHeader('connection', 'close');
  // Node calls this once a `Connection: close` reply is flushed (it would end and destroy the socket at once).
  socket.destroySoon = () => endAndLinger(socket);
  res.once('finish', () => endAndLinger(socket));
}

/**
 * Writes `last` (a whole raw reply, for answers without a response object) or nothing, ends our side and lingers as
 * above. Idempotent.
 */
export function endAndLinger(socket: Socket, last?: string): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  let read = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // The client closed its side: everything it sent is read, so closing cannot reset it. Our own reply goes first.
  const done = () => (socket.writableFinished ? cut() : socket.once('finish', cut));
  // Node's handler feeds the parser; a 'data' listener of our own takes the socket off it (http.Server's wrapper).
  socket.removeAllListeners('data');
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) cut();
  });
  if (socket.readableEnded) done();
  else socket.once('end', done);
  if (last === undefined) socket.end();
  else socket.end(last);
  socket.resume();
  // The parser may have stopped the handle (a request body nobody read fills its buffer); restart it as http's own
  // resume does: the stream's resume() alone does not, its read state still belongs to the parser.
  const handle = (socket as Socket & { _handle?: { reading?: boolean; readStart?: () => number } })._handle;
  if (handle?.readStart && !handle.reading) {
    handle.reading = true;
    handle.readStart();
  }
}
