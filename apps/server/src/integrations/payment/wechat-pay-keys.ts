import { X509Certificate, createDecipheriv, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';
import { PaymentNotifyError, headerOf, type RawNotification } from './types.js';

/**
 * The keys WeChat Pay signs with, by `Wechatpay-Serial`: platform certificates (kept current from
 * `GET /v3/certificates`) and the WeChat Pay public key (`PUB_KEY_ID_...`, configured by the operator).
 *
 * Trust: the configured certificate (and/or public key) is the anchor. A certificate download is taken only when
 * its answer is signed by a key already trusted (on the first download: a configured one), every certificate in
 * it decrypts under the APIv3 key (AEAD_AES_256_GCM, so a changed ciphertext is refused) and names the serial it
 * is listed under, and no serial already trusted comes back with another key. A download that fails any of these
 * is refused as a whole and the trusted set stays as it was. Every certificate an accepted download listed is kept
 * by serial until it expires (old and new during a rotation); configured keys stay as long as they are valid. WeChat Pay lists a new certificate before it signs with it, so a download every 12 hours carries the
 * trust from the old certificate to the new one; a process that sees nothing of that window (stopped for longer,
 * or a configured certificate that has expired) is back to the configured anchor and needs the current
 * certificate configured (or the public-key mode).
 */

/** SHA256withRSA over the APIv3 message; exported for the stand-in and tests. */
export function signMessage(message: string, key: KeyObject | string): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64');
}

export function verifyMessage(message: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

/** AEAD_AES_256_GCM: ciphertext is base64 with the 16-byte tag at the end. */
export function decryptResource(apiV3Key: string, r: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length < 17) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(r.nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  if (r.associated_data) decipher.setAAD(Buffer.from(r.associated_data, 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
}

const MAX_SKEW_SECONDS = 5 * 60;

/**
 * The Wechatpay-* headers of a signed answer or notification: what was signed, by which serial. Throws
 * PaymentNotifyError for missing headers, SIGNTEST probes and timestamps more than 5 minutes off.
 */
export function readSignature(headers: RawNotification['headers'], body: string, now: Date): { serial: string; signature: string; message: string } {
  const signature = headerOf(headers, 'wechatpay-signature');
  const timestamp = headerOf(headers, 'wechatpay-timestamp');
  const nonce = headerOf(headers, 'wechatpay-nonce');
  const serial = headerOf(headers, 'wechatpay-serial');
  if (!signature || !timestamp || !nonce || !serial) throw new PaymentNotifyError('missing Wechatpay-* signature headers', 'signature');
  // Probes check that we reject bad signatures; answering success would fail the check.
  if (signature.startsWith('WECHATPAY/SIGNTEST/')) throw new PaymentNotifyError('signature probe', 'probe');
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now.getTime() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) {
    throw new PaymentNotifyError('timestamp outside the 5 minute window', 'stale');
  }
  return { serial, signature, message: `${timestamp}\n${nonce}\n${body}\n` };
}

/** Certificate serials compare as numbers written in hex: case and leading zeros aside. */
const serialKey = (serial: string) => (serial.startsWith('PUB_KEY_ID_') ? serial : serial.toUpperCase().replace(/^0+(?=.)/, ''));

const isPublicKeyId = (serial: string) => serial.startsWith('PUB_KEY_ID_');

interface TrustedKey {
  serial: string;
  key: KeyObject;
  /** SubjectPublicKeyInfo DER: two certificates under one serial must carry the same key. */
  spki: Buffer;
  /** Validity in ms; null for a bare public key (no certificate around it). */
  notBefore: number | null;
  notAfter: number | null;
  source: 'config' | 'download';
}

function trustedFromPem(serial: string, pem: string, source: TrustedKey['source']): TrustedKey {
  if (pem.includes('BEGIN CERTIFICATE')) {
    const cert = new X509Certificate(pem);
    if (!isPublicKeyId(serial) && serialKey(cert.serialNumber) !== serialKey(serial)) {
      throw new Error(`the WeChat Pay platform certificate has serial ${cert.serialNumber}, configured as ${serial}`);
    }
    return { serial, key: cert.publicKey, spki: spkiOf(cert.publicKey), notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo), source };
  }
  const key = createPublicKey(pem);
  return { serial, key, spki: spkiOf(key), notBefore: null, notAfter: null, source };
}

const spkiOf = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });

/** A certificate download that is refused as a whole; the trusted set is unchanged. */
export class CertificateDownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateDownloadError';
  }
}

/** The answer to `GET /v3/certificates` exactly as received: its signature covers these bytes. */
export interface CertificateDownload {
  status: number;
  headers: RawNotification['headers'];
  body: string;
}

export interface KeyStoreLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface WechatPayKeyStoreOptions {
  /** The AES-256-GCM key the certificates are encrypted with. */
  apiV3Key: string;
  /** The operator's keys: platform certificate (serial) and/or public key (PUB_KEY_ID_...). */
  configured: Array<{ serial: string; pem: string }>;
  /** Signed `GET /v3/certificates`; absent: no downloads (public-key mode). */
  download?: () => Promise<CertificateDownload>;
  now: () => Date;
  /** How old the last accepted download may get before the next is due (12 h). */
  refreshIntervalMs?: number;
  /** After a failed download, the next scheduled try waits this long (10 min). */
  retryIntervalMs?: number;
  /** A serial we do not know asks for a download at most this often (1 min): forged serials cannot make us hammer the API. */
  unknownSerialIntervalMs?: number;
  log?: KeyStoreLog;
}

export interface CertificateRefresh {
  /** The serial whose key signed the accepted download. */
  signedBy: string;
  /** Every certificate serial the download listed that is still valid, now trusted. */
  serials: string[];
}

const HOUR = 3600_000;

export class WechatPayKeyStore {
  private readonly configured = new Map<string, TrustedKey>();
  private downloaded = new Map<string, TrustedKey>();
  private inflight: Promise<CertificateRefresh> | null = null;
  private lastSuccessAt = -Infinity;
  private lastAttemptAt = -Infinity;
  private lastUnknownAt = -Infinity;
  private timer: NodeJS.Timeout | null = null;
  private readonly refreshIntervalMs: number;
  private readonly retryIntervalMs: number;
  private readonly unknownSerialIntervalMs: number;

  constructor(private readonly opts: WechatPayKeyStoreOptions) {
    for (const k of opts.configured) this.configured.set(serialKey(k.serial), trustedFromPem(k.serial, k.pem, 'config'));
    this.refreshIntervalMs = opts.refreshIntervalMs ?? 12 * HOUR;
    this.retryIntervalMs = opts.retryIntervalMs ?? 10 * 60_000;
    this.unknownSerialIntervalMs = opts.unknownSerialIntervalMs ?? 60_000;
  }

  /** Whether certificates are downloaded at all (a platform certificate is configured). */
  get downloads(): boolean {
    return this.opts.download !== undefined;
  }

  /** The trusted key for a serial, valid now; no download. */
  private trusted(serial: string): TrustedKey | undefined {
    const k = this.downloaded.get(serialKey(serial)) ?? this.configured.get(serialKey(serial));
    if (!k) return undefined;
    const now = this.opts.now().getTime();
    if (k.notBefore !== null && now < k.notBefore - MAX_SKEW_SECONDS * 1000) return undefined;
    if (k.notAfter !== null && now > k.notAfter) return undefined;
    return k;
  }

  /** Serials trusted now (configured and downloaded), for logs, the console and tests. */
  trustedSerials(): string[] {
    const all = new Map([...this.configured, ...this.downloaded]);
    return [...all.values()].filter((k) => this.trusted(k.serial)).map((k) => k.serial);
  }

  /**
   * The key for `Wechatpay-Serial`. A serial we do not know may be a certificate listed since our last download:
   * one download is made (at most one per unknownSerialIntervalMs, shared with any already under way), and the
   * serial is looked up again. Undefined: not a key WeChat Pay vouched for.
   */
  async keyFor(serial: string): Promise<KeyObject | undefined> {
    this.refreshIfDue();
    const found = this.trusted(serial);
    // A public key is the operator's to configure; only platform certificates come with the download.
    if (found || !this.opts.download || isPublicKeyId(serial)) return found?.key;
    const now = this.opts.now().getTime();
    if (this.inflight) {
      await this.inflight.catch(() => undefined);
    } else if (now - this.lastUnknownAt >= this.unknownSerialIntervalMs) {
      this.lastUnknownAt = now;
      this.opts.log?.info({ serial }, 'WeChat Pay: unknown Wechatpay-Serial, downloading the platform certificates');
      await this.refresh().catch(() => undefined);
    }
    return this.trusted(serial)?.key;
  }

  /** Starts a download in the background when the last accepted one is older than the refresh interval. */
  refreshIfDue(): void {
    if (!this.opts.download || this.inflight) return;
    const now = this.opts.now().getTime();
    if (now - this.lastSuccessAt >= this.refreshIntervalMs && now - this.lastAttemptAt >= this.retryIntervalMs) {
      this.refresh().catch(() => undefined);
    }
  }

  /** Downloads and verifies the certificate list now (one at a time); rejects with CertificateDownloadError when refused. */
  refresh(): Promise<CertificateRefresh> {
    if (!this.opts.download) return Promise.reject(new CertificateDownloadError('no platform certificate configured: nothing to download'));
    if (this.inflight) return this.inflight;
    this.lastAttemptAt = this.opts.now().getTime();
    const run = this.downloadAndVerify().then(
      (r) => {
        this.lastSuccessAt = this.opts.now().getTime();
        this.opts.log?.info({ signedBy: r.signedBy, serials: r.serials }, 'WeChat Pay: platform certificates downloaded');
        return r;
      },
      (err: unknown) => {
        const e = err instanceof CertificateDownloadError ? err : new CertificateDownloadError(err instanceof Error ? err.message : String(err));
        this.opts.log?.warn({ reason: e.message }, 'WeChat Pay: platform certificate download refused');
        throw e;
      },
    );
    const tracked = run.finally(() => {
      if (this.inflight === tracked) this.inflight = null;
    });
    this.inflight = tracked;
    return tracked;
  }

  /** Resolves when no download is under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inflight) await this.inflight.catch(() => undefined);
  }

  /** Checks every 10 minutes whether a download is due, so an idle process keeps up with rotations too. */
  start(): void {
    if (!this.opts.download || this.timer) return;
    this.timer = setInterval(() => this.refreshIfDue(), Math.min(this.retryIntervalMs, this.refreshIntervalMs));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async downloadAndVerify(): Promise<CertificateRefresh> {
    const res = await this.opts.download!();
    if (res.status !== 200) throw new CertificateDownloadError(`GET /v3/certificates answered HTTP ${res.status}`);
    let sig: ReturnType<typeof readSignature>;
    try {
      sig = readSignature(res.headers, res.body, this.opts.now());
    } catch (err) {
      throw new CertificateDownloadError(`the certificate list is not signed: ${(err as Error).message}`);
    }
    // Only a key we already trust vouches for a download; a certificate never vouches for itself.
    const signer = this.trusted(sig.serial);
    if (!signer) throw new CertificateDownloadError(`the certificate list is signed by ${sig.serial}, which is not trusted (configure the current platform certificate)`);
    if (!verifyMessage(sig.message, sig.signature, signer.key)) throw new CertificateDownloadError(`the certificate list's signature does not verify with ${sig.serial}`);
    let parsed: { data?: unknown };
    try {
      parsed = JSON.parse(res.body) as { data?: unknown };
    } catch {
      throw new CertificateDownloadError('the certificate list is not JSON');
    }
    if (!Array.isArray(parsed.data) || parsed.data.length === 0) throw new CertificateDownloadError('the certificate list is empty');
    const entries = parsed.data.map((e: unknown) => this.openCertificate(e));
    for (const e of entries) {
      const known = this.downloaded.get(serialKey(e.serial)) ?? this.configured.get(serialKey(e.serial));
      if (known && !known.spki.equals(e.spki)) throw new CertificateDownloadError(`certificate ${e.serial} comes with another key than the one trusted`);
    }
    // Kept by serial until it expires, listed or not any more: WeChat Pay may still sign (or retry a notification)
    // with the old certificate during the overlap.
    const now = this.opts.now().getTime();
    const merged = new Map([...this.downloaded, ...entries.map((e) => [serialKey(e.serial), e] as const)]);
    this.downloaded = new Map([...merged].filter(([, e]) => e.notAfter === null || e.notAfter > now));
    return { signedBy: sig.serial, serials: entries.filter((e) => e.notAfter === null || e.notAfter > now).map((e) => e.serial) };
  }

  private openCertificate(entry: unknown): TrustedKey {
    const e = (entry ?? {}) as { serial_no?: unknown; encrypt_certificate?: { algorithm?: unknown; nonce?: unknown; associated_data?: unknown; ciphertext?: unknown } };
    const c = e.encrypt_certificate;
    if (typeof e.serial_no !== 'string' || !/^[0-9A-Fa-f]{1,64}$/.test(e.serial_no)) throw new CertificateDownloadError('a listed certificate has no serial_no');
    const serial = e.serial_no;
    if (!c || c.algorithm !== 'AEAD_AES_256_GCM' || typeof c.ciphertext !== 'string' || typeof c.nonce !== 'string') {
      throw new CertificateDownloadError(`certificate ${serial} is not an AEAD_AES_256_GCM resource`);
    }
    let pem: string;
    try {
      pem = decryptResource(this.opts.apiV3Key, { ciphertext: c.ciphertext, nonce: c.nonce, associated_data: typeof c.associated_data === 'string' ? c.associated_data : '' });
    } catch {
      throw new CertificateDownloadError(`certificate ${serial} does not decrypt with the APIv3 key`);
    }
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(pem);
    } catch {
      throw new CertificateDownloadError(`certificate ${serial} is not an X.509 certificate`);
    }
    if (serialKey(cert.serialNumber) !== serialKey(serial)) throw new CertificateDownloadError(`certificate listed as ${serial} has serial ${cert.serialNumber}`);
    if (cert.publicKey.asymmetricKeyType !== 'rsa') throw new CertificateDownloadError(`certificate ${serial} does not carry an RSA key`);
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    if (Number.isNaN(notBefore) || Number.isNaN(notAfter)) throw new CertificateDownloadError(`certificate ${serial} has an unreadable validity`);
    return { serial, key: cert.publicKey, spki: spkiOf(cert.publicKey), notBefore, notAfter, source: 'download' };
  }
}
