import { createSign, type KeyObject } from 'node:crypto';

/**
 * Issues an X.509 v3 certificate (RSA, sha256WithRSAEncryption) for the stand-ins: node:crypto parses certificates
 * but cannot make them, so the TBSCertificate is written in DER here and signed with node:crypto's RSA-SHA256.
 * Only what the stand-ins need: a subject and issuer of printable attributes, a validity, a serial, the key.
 */
export interface CertificateRequest {
  /** Hex, as WeChat Pay writes serials (e.g. 40 hex digits); its first digit below 8 keeps the INTEGER positive. */
  serialHex: string;
  subject: Array<[attribute: 'C' | 'ST' | 'L' | 'O' | 'OU' | 'CN', value: string]>;
  issuer: Array<[attribute: 'C' | 'ST' | 'L' | 'O' | 'OU' | 'CN', value: string]>;
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  /** The issuer's private key (the stand-in's root CA). */
  signingKey: KeyObject;
}

const ATTRIBUTE_OIDS = { C: '2.5.4.6', ST: '2.5.4.8', L: '2.5.4.7', O: '2.5.4.10', OU: '2.5.4.11', CN: '2.5.4.3' } as const;
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const groups: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      groups.unshift(v & 0x7f);
      if (v < 128) break;
    }
    out.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return tlv(0x06, Buffer.from(out));
}

function name(attributes: CertificateRequest['subject']): Buffer {
  // UTF8String (0x0c) for every value: PrintableString cannot carry what a stand-in might be given.
  return sequence(...attributes.map(([k, v]) => set(sequence(oid(ATTRIBUTE_OIDS[k]), tlv(0x0c, Buffer.from(v, 'utf8'))))));
}

function time(d: Date): Buffer {
  const iso = d.toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  // RFC 5280: UTCTime through 2049, GeneralizedTime from 2050.
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}

/** The certificate as PEM. */
export function issueCertificate(r: CertificateRequest): string {
  if (!/^[0-7][0-9A-Fa-f]*$/.test(r.serialHex) || r.serialHex.length % 2) throw new Error('serialHex: an even number of hex digits, the first below 8');
  const algorithm = sequence(oid(SHA256_WITH_RSA), tlv(0x05, Buffer.alloc(0)));
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // [0] version v3
    tlv(0x02, Buffer.from(r.serialHex, 'hex')),
    algorithm,
    name(r.issuer),
    sequence(time(r.notBefore), time(r.notAfter)),
    name(r.subject),
    r.publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('RSA-SHA256').update(tbs).sign(r.signingKey);
  const der = sequence(tbs, algorithm, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`;
}
