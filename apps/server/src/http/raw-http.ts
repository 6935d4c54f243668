import net from 'node:net';

export interface RawResponse {
  /** Everything the server wrote, decoded as UTF-8. */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (rather than the wait timing out). */
  closed: boolean;
}

/**
 * Sends bytes as they are on a fresh TCP connection and collects what comes back until the server closes it or
 * `waitMs` passes. For requests fetch() refuses to send: oversized headers, broken request lines, lying lengths.
 */
export function rawRequest(baseUrl: string, payload: string | Buffer, waitMs = 3000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks).toString('utf8'), closed));
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (err) => {
      if (chunks.length === 0) {
        clearTimeout(timer);
        reject(err);
      }
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.write(payload);
  });
}

export function parseResponse(text: string, closed: boolean): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  const head = split >= 0 ? text.slice(0, split) : text;
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1] ?? 0);
  return { text, status, headers, body: split >= 0 ? text.slice(split + 4) : '', closed };
}

/** What a client that kept sending saw. */
export interface PushOutcome {
  /** The reply, once its head and `Content-Length` body were all in; null when the connection ended before that. */
  reply: RawResponse | null;
  /** Body bytes handed to the socket. */
  sent: number;
  /** The socket's error (ECONNRESET, EPIPE...), if it had one. */
  error: string | null;
  /** The server half-closed (FIN) before the connection went away. */
  serverEnded: boolean;
}

/** The reply in `buf` once it is whole (head plus `Content-Length` bytes), else null. */
function wholeReply(buf: Buffer): RawResponse | null {
  const split = buf.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const head = parseResponse(buf.subarray(0, split).toString('utf8'), false);
  const length = Number(head.headers['content-length'] ?? NaN);
  if (!Number.isFinite(length) || buf.length - split - 4 < length) return null;
  return parseResponse(buf.subarray(0, split + 4 + length).toString('utf8'), false);
}

/**
 * Sends `head` on a fresh connection, then body bytes as fast as the server takes them (up to `bodyBytes`, in
 * `chunk`s; `frame` wraps each one, e.g. as a chunked-encoding chunk). `readWhileSending` is a browser: it reads as it
 * sends and stops sending once the whole reply is in. Without it the client sends all of `bodyBytes` before it reads
 * anything, as simple clients do. Resolves when the connection is gone (or `timeoutMs` passed) with what was read.
 */
export async function pushBody(
  baseUrl: string,
  head: string,
  o: { bodyBytes: number; readWhileSending: boolean; chunk?: Buffer; frame?: (chunk: Buffer) => Buffer; timeoutMs?: number },
): Promise<PushOutcome> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  let error: string | null = null;
  let serverEnded = false;
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
  socket.on('end', () => (serverEnded = true));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), closed]);
  if (!o.readWhileSending) socket.pause();
  const reply = () => wholeReply(Buffer.concat(chunks));
  const payload = o.frame ? o.frame(o.chunk ?? Buffer.alloc(64 * 1024, 0x61)) : (o.chunk ?? Buffer.alloc(64 * 1024, 0x61));
  socket.write(head);
  let sent = 0;
  while (sent < o.bodyBytes && !socket.destroyed && !serverEnded && !(o.readWhileSending && reply())) {
    sent += payload.length;
    if (!socket.write(payload)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
  }
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), o.timeoutMs ?? 15_000);
  await closed;
  clearTimeout(timer);
  return { reply: reply(), sent, error, serverEnded };
}
