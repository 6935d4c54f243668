import { describe, expect, it } from 'vitest';
import { Document, Packer, Paragraph } from 'docx';
import { buildZip } from '../test/zip-writer.js';
import { inspectZip, OFFICE_ZIP_LIMITS, ZipRejectedError } from './zip-guard.js';

const MiB = 1024 * 1024;
const XML_CHUNK = Buffer.from('<w:p><w:r><w:t>砚</w:t></w:r></w:p>'.repeat(2000));

async function refusal(p: Promise<unknown>): Promise<ZipRejectedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ZipRejectedError);
  return err as ZipRejectedError;
}

describe('zip guard', () => {
  it('passes a real docx and reports what it counted', async () => {
    const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('正常的文档')] }] }));
    const summary = await inspectZip(docx);
    expect(summary.names).toContain('word/document.xml');
    expect(summary.totalBytes).toBeGreaterThan(docx.length);
  });

  it('refuses an entry that inflates past the cap (honest header: refused without inflating)', async () => {
    const bomb = await buildZip([{ name: 'word/document.xml', repeat: { chunk: XML_CHUNK, size: 200 * MiB } }]);
    expect(bomb.length).toBeLessThan(2 * MiB);
    const started = Date.now();
    const err = await refusal(inspectZip(bomb));
    expect(err).toMatchObject({ reason: 'too_large', message: '文件解压后过大，已拒绝' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a bomb whose header lies about its size, by counting what actually inflates', async () => {
    const lying = await buildZip([{ name: 'word/document.xml', repeat: { chunk: XML_CHUNK, size: 200 * MiB }, declaredSize: 1024 }]);
    const started = Date.now();
    expect((await refusal(inspectZip(lying))).reason).toBe('too_large');
    // Stopped early: inflating all 200 MiB takes far longer on this machine.
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses many entries that are each small but together too large (total cap)', async () => {
    const entries = Array.from({ length: 12 }, (_, i) => ({ name: `word/part${i}.xml`, repeat: { chunk: XML_CHUNK, size: 10 * MiB } }));
    const err = await refusal(inspectZip(await buildZip(entries)));
    expect(err.reason).toBe('too_large');
    expect(OFFICE_ZIP_LIMITS.maxTotalBytes).toBeLessThan(120 * MiB);
  });

  it('refuses more than 2,000 entries before reading any', async () => {
    const many = await buildZip(Array.from({ length: 2001 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })));
    const err = await refusal(inspectZip(many));
    expect(err.reason).toBe('too_many_entries');
    expect(err.message).toContain('2000');
  });

  it('refuses encrypted entries, unknown compression methods, unsafe names and garbage', async () => {
    expect((await refusal(inspectZip(await buildZip([{ name: 'word/document.xml', data: Buffer.from('<x/>'), encrypted: true }])))).reason).toBe('encrypted');
    expect((await refusal(inspectZip(await buildZip([{ name: 'word/document.xml', data: Buffer.from('<x/>'), method: 12 }])))).reason).toBe('malformed');
    expect((await refusal(inspectZip(await buildZip([{ name: '../../etc/passwd', data: Buffer.from('x') }])))).reason).toBe('malformed');
    expect((await refusal(inspectZip(await buildZip([{ name: '/abs.xml', data: Buffer.from('x') }])))).reason).toBe('malformed');
    expect((await refusal(inspectZip(Buffer.from('PK\x03\x04 not really a zip')))).reason).toBe('malformed');
  });
});
