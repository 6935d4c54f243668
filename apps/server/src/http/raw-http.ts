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
