import { describe, expect, it } from 'vitest';
import { IMAGE_MSG, declaredType, imageProblem, sniffType } from './image-check';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const JPG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]);
const PDF = new TextEncoder().encode('%PDF-1.7');
const TXT = new TextEncoder().encode('你好 hello\n');

describe('sniffType', () => {
  it('recognises the spec signatures', () => {
    expect(sniffType(PNG)).toBe('png');
    expect(sniffType(JPG)).toBe('jpeg');
    expect(sniffType(GIF)).toBe('gif');
    expect(sniffType(PDF)).toBe('pdf');
    expect(sniffType(new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBe('docx');
    expect(sniffType(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe('doc');
    expect(sniffType(TXT)).toBe('txt');
    expect(sniffType(new Uint8Array([0, 1, 2]))).toBe('unknown');
  });
  it('reads the declared type from MIME, then extension', () => {
    expect(declaredType('a.bin', 'image/jpeg')).toBe('jpeg');
    expect(declaredType('a.JPG', '')).toBe('jpeg');
    expect(declaredType('a', '')).toBe('unknown');
  });
});

describe('imageProblem', () => {
  it('accepts real images under the cap', () => {
    expect(imageProblem({ name: 'a.png', type: 'image/png', size: 10 }, PNG)).toBeNull();
    expect(imageProblem({ name: 'a.gif', type: '', size: 10 }, GIF)).toBeNull();
  });
  it('reports a disguised file as a mismatch', () => {
    expect(imageProblem({ name: 'a.png', type: 'image/png', size: 10 }, PDF)).toBe(IMAGE_MSG.mismatch);
    expect(imageProblem({ name: 'a.jpg', type: 'image/jpeg', size: 10 }, PNG)).toBe(IMAGE_MSG.mismatch);
  });
  it('refuses non-images and files over 20 MB', () => {
    expect(imageProblem({ name: 'a.pdf', type: 'application/pdf', size: 10 }, PDF)).toBe('请上传jpg、jpeg、png、gif格式的文件');
    expect(imageProblem({ name: 'a.png', type: 'image/png', size: 20 * 1024 * 1024 + 1 }, PNG)).toBe('请上传20MB以内的文件');
    expect(imageProblem({ name: 'a.png', type: 'image/png', size: 20 * 1024 * 1024 }, PNG)).toBeNull();
  });
});
