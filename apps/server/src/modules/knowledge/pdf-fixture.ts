import { createDeflate } from 'node:zlib';

/**
 * Test fixture: a real multi-page PDF whose text layer holds Chinese. Text is shown with a Type0 font under
 * Identity-H (each character's code is its 2-byte Unicode value) and a ToUnicode CMap mapping codes back to
 * Unicode, which is what pdf.js reads for text extraction. No font program is embedded (viewers substitute one).
 */
const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

function toUnicodeCMap(): string {
  const ranges: string[] = [];
  for (let hi = 0; hi < 256; hi++) {
    // Surrogate halves are not characters.
    if (hi >= 0xd8 && hi <= 0xdf) continue;
    const lo = hex4(hi << 8);
    ranges.push(`<${lo}> <${hex4((hi << 8) | 0xff)}> <${lo}>`);
  }
  const blocks: string[] = [];
  for (let i = 0; i < ranges.length; i += 100) {
    const part = ranges.slice(i, i + 100);
    blocks.push(`${part.length} beginbfrange\n${part.join('\n')}\nendbfrange`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

const hexLine = (l: string) => [...l].map((c) => hex4(c.codePointAt(0)! > 0xffff ? 0x3f : c.codePointAt(0)!)).join('');

/** One PDF page per entry of `pages`; each page's lines are shown top to bottom. */
export function chinesePdf(pages: string[][]): Buffer {
  return buildPdf(pages.map((lines) => ({ content: Buffer.from(`BT /F1 12 Tf 16 TL 40 800 Td\n${lines.map((l) => `<${hexLine(l)}> Tj T*`).join('\n')}\nET`, 'latin1') })));
}

/**
 * A hostile PDF: one page whose content stream shows `line` again and again until it is `contentBytes` long,
 * Flate-compressed (a repeated line deflates ~300:1, so 40 MB of content fits in a ~150 KB file). The font is tiny
 * so every line stays inside the page (pdf.js drops text outside it). `oneString`: a single show-text operator
 * whose one string holds every repetition. The stream is deflated as it is produced, so the test never holds the
 * inflated content.
 */
export async function floodPdf(line: string, contentBytes: number, opts: { oneString?: boolean } = {}): Promise<Buffer> {
  const op = Buffer.from(opts.oneString ? hexLine(line) : `<${hexLine(line)}> Tj T*\n`, 'latin1');
  const head = Buffer.from(`BT /F1 0.001 Tf 0.001 TL 40 800 Td\n${opts.oneString ? '<' : ''}`, 'latin1');
  const tail = Buffer.from(opts.oneString ? '> Tj\nET' : 'ET', 'latin1');
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  deflate.write(head);
  for (let written = 0; written + op.length <= contentBytes; written += op.length) {
    if (!deflate.write(op)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end(tail);
  await done;
  return buildPdf([{ content: Buffer.concat(out), filter: 'FlateDecode' }]);
}

function buildPdf(pages: Array<{ content: Buffer; filter?: string }>): Buffer {
  const objects: Buffer[] = [];
  const add = (o: string | Buffer) => {
    objects.push(Buffer.isBuffer(o) ? o : Buffer.from(o, 'latin1'));
    return objects.length;
  };
  const catalog = add('');
  const pagesObj = add('');
  const cmap = toUnicodeCMap();
  const toUnicode = add(`<< /Length ${Buffer.byteLength(cmap)} >>\nstream\n${cmap}\nendstream`);
  const descriptor = add(
    '<< /Type /FontDescriptor /FontName /Inkstone-Test /Flags 4 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
  );
  const cidFont = add(
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Inkstone-Test /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /DW 1000 /CIDToGIDMap /Identity >>`,
  );
  const font = add(`<< /Type /Font /Subtype /Type0 /BaseFont /Inkstone-Test /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${toUnicode} 0 R >>`);
  const kids: number[] = [];
  for (const { content, filter } of pages) {
    const stream = add(
      Buffer.concat([Buffer.from(`<< /Length ${content.length}${filter ? ` /Filter /${filter}` : ''} >>\nstream\n`, 'latin1'), content, Buffer.from('\nendstream', 'latin1')]),
    );
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 595 842] /Contents ${stream} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`));
  }
  objects[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pagesObj} 0 R >>`, 'latin1');
  objects[pagesObj - 1] = Buffer.from(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`, 'latin1');
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), o, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(obj);
    length += obj.length;
  });
  let trailer = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  trailer += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(trailer, 'latin1'));
  return Buffer.concat(parts);
}
