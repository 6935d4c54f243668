import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

/**
 * A minimal zip writer for tests that need hostile archives (zip bombs, lying headers, encrypted flags), which no
 * well-behaved library will produce. The big entry is deflated from a repeated chunk in a stream, so the test never
 * holds the inflated bytes in memory.
 */
export interface ZipEntryInput {
  name: string;
  /** Small content, deflated as is. */
  data?: Buffer;
  /** Content made of `chunk` repeated until `size` bytes (a bomb), optionally wrapped in `head` and `tail`. */
  repeat?: { chunk: Buffer; size: number; head?: Buffer; tail?: Buffer };
  /** Uncompressed size written into the headers instead of the true one (a lie). */
  declaredSize?: number;
  /** Sets the "encrypted" flag (bit 0); the data itself is not encrypted. */
  encrypted?: boolean;
  /** Compression method in the headers (default 8, deflate). */
  method?: number;
}

interface Prepared {
  name: Buffer;
  compressed: Buffer;
  crc: number;
  size: number;
  flags: number;
  method: number;
}

async function deflateRepeated(chunk: Buffer, size: number, head: Buffer = Buffer.alloc(0), tail: Buffer = Buffer.alloc(0)): Promise<{ compressed: Buffer; crc: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = crc32(head);
  deflate.write(head);
  for (let written = 0; written < size;) {
    const part = size - written >= chunk.length ? chunk : chunk.subarray(0, size - written);
    crc = crc32(part, crc);
    written += part.length;
    if (!deflate.write(part)) await new Promise((r) => deflate.once('drain', r));
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await done;
  return { compressed: Buffer.concat(out), crc };
}

export async function buildZip(entries: ZipEntryInput[]): Promise<Buffer> {
  const prepared: Prepared[] = [];
  for (const e of entries) {
    const method = e.method ?? 8;
    let compressed: Buffer;
    let crc: number;
    let size: number;
    if (e.repeat) {
      ({ compressed, crc } = await deflateRepeated(e.repeat.chunk, e.repeat.size, e.repeat.head, e.repeat.tail));
      size = (e.repeat.head?.length ?? 0) + e.repeat.size + (e.repeat.tail?.length ?? 0);
    } else {
      const data = e.data ?? Buffer.alloc(0);
      compressed = method === 0 ? data : deflateRawSync(data);
      crc = crc32(data);
      size = data.length;
    }
    prepared.push({ name: Buffer.from(e.name, 'utf8'), compressed, crc, size: e.declaredSize ?? size, flags: (e.encrypted ? 1 : 0) | 0x800, method });
  }
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of prepared) {
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(p.flags, 6);
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(p.crc >>> 0, 14);
    local.writeUInt32LE(p.compressed.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(p.name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, p.name, p.compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(p.flags, 8);
    central.writeUInt16LE(p.method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(p.crc >>> 0, 16);
    central.writeUInt32LE(p.compressed.length, 20);
    central.writeUInt32LE(p.size, 24);
    central.writeUInt16LE(p.name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, p.name);
    offset += 30 + p.name.length + p.compressed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(prepared.length, 8);
  end.writeUInt16LE(prepared.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
