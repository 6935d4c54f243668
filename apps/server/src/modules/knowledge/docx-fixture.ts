import yauzl from 'yauzl';
import { Document, Packer, Paragraph } from 'docx';
import { buildZip, type ZipEntryInput } from '../../test/zip-writer.js';

const MARK = 'INKSTONE-FLOOD-MARK';

/**
 * Test fixture: a real docx (written by the `docx` package) whose word/document.xml repeats one paragraph holding
 * `line` until the part is `xmlBytes` long. A repeated paragraph deflates about 1000:1, so ~30 MB of text fits in a
 * file of tens of KB; the part is deflated as it is produced (test/zip-writer.ts), never held inflated.
 */
export async function floodDocx(line: string, xmlBytes: number): Promise<Buffer> {
  const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph(MARK)] }] }));
  const zip = await yauzl.fromBufferPromise(docx, { lazyEntries: true });
  const entries: ZipEntryInput[] = [];
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
    const data = Buffer.concat(chunks);
    if (entry.fileName !== 'word/document.xml') {
      entries.push({ name: entry.fileName, data });
      continue;
    }
    // The document's own paragraph, with our line in place of the mark, is the repeated chunk.
    const xml = data.toString('utf8');
    const at = xml.indexOf(MARK);
    const pStart = xml.lastIndexOf('<w:p>', at) >= 0 ? xml.lastIndexOf('<w:p>', at) : xml.lastIndexOf('<w:p ', at);
    const pEnd = xml.indexOf('</w:p>', at) + '</w:p>'.length;
    const paragraph = Buffer.from(xml.slice(pStart, pEnd).replace(MARK, line));
    const head = Buffer.from(xml.slice(0, pStart));
    const tail = Buffer.from(xml.slice(pEnd));
    const reps = Math.max(1, Math.floor((xmlBytes - head.length - tail.length) / paragraph.length));
    entries.push({ name: entry.fileName, repeat: { chunk: paragraph, size: reps * paragraph.length, head, tail } });
  }
  zip.close();
  return buildZip(entries);
}
