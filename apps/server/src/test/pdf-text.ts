import { extractText } from 'unpdf';

/**
 * A PDF's text (pdf.js through unpdf), every page, whitespace removed and NFKC-normalised: the CJK fonts' Unicode maps
 * name some ideographs by their Kangxi-radical twins (⾄ for 至), which NFKC folds back. Tests compare figures in it.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const { text, totalPages } = await extractText(bytes, { mergePages: true });
  return { text: text.normalize('NFKC').replace(/\s+/g, ''), pages: totalPages };
}
