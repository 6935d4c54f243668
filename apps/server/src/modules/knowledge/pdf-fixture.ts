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

/** One PDF page per entry of `pages`; each page's lines are shown top to bottom. */
export function chinesePdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const add = (o: string) => {
    objects.push(o);
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
  for (const lines of pages) {
    const shown = lines.map((l) => `<${[...l].map((c) => hex4(c.codePointAt(0)! > 0xffff ? 0x3f : c.codePointAt(0)!)).join('')}> Tj T*`).join('\n');
    const content = `BT /F1 12 Tf 16 TL 40 800 Td\n${shown}\nET`;
    const stream = add(`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 595 842] /Contents ${stream} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
