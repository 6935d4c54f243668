import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-in for an S3-compatible object store (path-style: `/{bucket}/{key}`), PUT/GET/DELETE Object only.
 * AWS Signature V4 is verified with a separately written canonical request (no aws4 here), rebuilt from what
 * actually arrived on the wire, so an adapter that signs one thing and sends another fails.
 */

export interface S3Standin {
  url: string;
  /** Stored objects by key (without the bucket). */
  objects: Map<string, Buffer>;
  /** Content-Type each object was stored with. */
  contentTypes: Map<string, string>;
  /** Every request that passed signature verification, in order. */
  requests: Array<{ method: string; key: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export interface S3StandinOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  /** The stand-in's clock in ms; tests skew it to exercise the 15-minute window. */
  now?: () => number;
}

const SKEW_MS = 15 * 60 * 1000;
const UNRESERVED = /^[A-Za-z0-9\-_.~]$/;

/** S3 UriEncode: every byte outside the RFC 3986 unreserved set becomes %XX (upper-case hex). */
function uriEncode(value: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if ((byte < 0x80 && UNRESERVED.test(ch)) || (keepSlash && ch === '/')) out += ch;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

function sameString(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

class S3Fault {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly resource = '',
  ) {}
}

function parseAmzDate(v: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

export async function startS3Standin(opts: S3StandinOptions): Promise<S3Standin> {
  const now = opts.now ?? Date.now;
  const objects = new Map<string, Buffer>();
  const contentTypes = new Map<string, string>();
  const requests: S3Standin['requests'] = [];

  /** Throws an S3Fault unless the request carries a valid SigV4 Authorization header for these credentials. */
  const verify = (req: http.IncomingMessage, rawPath: string, rawQuery: string, body: Buffer) => {
    const auth = req.headers.authorization;
    if (!auth) throw new S3Fault(403, 'AccessDenied', 'Access Denied');
    const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
    if (!m) throw new S3Fault(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
    const [, credential = '', signedHeaderList = '', signature = ''] = m;
    const [keyId, scopeDate, region, service, terminator, ...rest] = credential.split('/');
    if (rest.length || !scopeDate || service !== 's3' || terminator !== 'aws4_request') {
      throw new S3Fault(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed; the Credential is mal-formed.');
    }
    if (keyId !== opts.accessKeyId) {
      throw new S3Fault(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    }
    if (region !== opts.region) {
      throw new S3Fault(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${region}' is wrong; expecting '${opts.region}'`);
    }
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const at = parseAmzDate(amzDate);
    if (at === null) throw new S3Fault(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
    if (amzDate.slice(0, 8) !== scopeDate) {
      throw new S3Fault(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed; the credential date does not match x-amz-date.');
    }
    if (Math.abs(now() - at) > SKEW_MS) {
      throw new S3Fault(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
    }
    const payloadHash = req.headers['x-amz-content-sha256'];
    if (typeof payloadHash !== 'string') {
      throw new S3Fault(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
    }
    if (payloadHash !== 'UNSIGNED-PAYLOAD') {
      if (!/^[0-9a-f]{64}$/.test(payloadHash)) throw new S3Fault(400, 'InvalidArgument', 'x-amz-content-sha256 must be UNSIGNED-PAYLOAD or a SHA256 value.');
      if (payloadHash !== sha256Hex(body)) {
        throw new S3Fault(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
      }
    }

    const signed = signedHeaderList.split(';');
    const sortedUnique = [...new Set(signed)].sort();
    if (signed.join(';') !== sortedUnique.join(';') || signed.some((h) => h !== h.toLowerCase())) {
      throw new S3Fault(400, 'AuthorizationHeaderMalformed', 'SignedHeaders must be lower-case, sorted and unique.');
    }
    if (!signed.includes('host')) throw new S3Fault(403, 'AccessDenied', 'Host must be a signed header.');
    for (const name of Object.keys(req.headers)) {
      if (name.startsWith('x-amz-') && !signed.includes(name)) {
        throw new S3Fault(403, 'AccessDenied', `There were headers present in the request which were not signed: ${name}`);
      }
    }
    const canonicalHeaders = signed
      .map((name) => {
        const value = req.headers[name];
        if (value === undefined) throw new S3Fault(403, 'SignatureDoesNotMatch', `Signed header ${name} is missing from the request.`);
        const joined = Array.isArray(value) ? value.join(',') : value;
        return `${name}:${joined.trim().replace(/\s+/g, ' ')}\n`;
      })
      .join('');

    // The path as sent, decoded once, then re-encoded per S3 rules (no dot-segment normalisation for S3).
    let decodedPath: string;
    try {
      decodedPath = decodeURIComponent(rawPath);
    } catch {
      throw new S3Fault(400, 'InvalidURI', 'Could not parse the specified URI.');
    }
    const canonicalUri = uriEncode(decodedPath, true);
    const canonicalQuery = [...new URLSearchParams(rawQuery)]
      .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const)
      .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaderList, payloadHash].join('\n');
    const scope = `${scopeDate}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
    const signingKey = hmac(hmac(hmac(hmac(`AWS4${opts.secretAccessKey}`, scopeDate), region), 's3'), 'aws4_request');
    const expected = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
    if (!sameString(signature, expected)) {
      throw new S3Fault(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
    }
  };

  const handle = (req: http.IncomingMessage, body: Buffer): { status: number; headers?: Record<string, string>; body?: Buffer } => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? '' : rawUrl.slice(q + 1);
    verify(req, rawPath, rawQuery, body);

    const [bucket = '', ...keyParts] = decodeURIComponent(rawPath).slice(1).split('/');
    const key = keyParts.join('/');
    if (bucket !== opts.bucket) throw new S3Fault(404, 'NoSuchBucket', 'The specified bucket does not exist', `/${bucket}`);
    if (!key) throw new S3Fault(405, 'MethodNotAllowed', 'This stand-in only serves object operations.');
    requests.push({ method: req.method ?? '', key, headers: req.headers });

    switch (req.method) {
      case 'PUT': {
        // S3 refuses chunked uploads without a declared length (aws-chunked streaming signatures aside).
        if (req.headers['content-length'] === undefined) {
          throw new S3Fault(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
        }
        if (Number(req.headers['content-length']) !== body.length) {
          throw new S3Fault(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
        }
        objects.set(key, body);
        contentTypes.set(key, String(req.headers['content-type'] ?? 'binary/octet-stream'));
        return { status: 200, headers: { etag: `"${createHash('md5').update(body).digest('hex')}"` } };
      }
      case 'GET': {
        const obj = objects.get(key);
        if (!obj) throw new S3Fault(404, 'NoSuchKey', 'The specified key does not exist.', `/${bucket}/${key}`);
        return { status: 200, headers: { 'content-type': contentTypes.get(key) ?? 'binary/octet-stream', 'content-length': String(obj.length) }, body: obj };
      }
      case 'DELETE':
        objects.delete(key);
        contentTypes.delete(key);
        return { status: 204 };
      default:
        throw new S3Fault(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const out = handle(req, Buffer.concat(chunks));
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      } catch (err) {
        if (!(err instanceof S3Fault)) {
          res.writeHead(500);
          res.end(String(err));
          return;
        }
        const xml =
          '<?xml version="1.0" encoding="UTF-8"?>\n' +
          `<Error><Code>${err.code}</Code><Message>${xmlEscape(err.message)}</Message>` +
          `<Resource>${xmlEscape(err.resource)}</Resource><RequestId>standin</RequestId></Error>`;
        res.writeHead(err.status, { 'content-type': 'application/xml' });
        res.end(req.method === 'HEAD' ? undefined : xml);
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    contentTypes,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
