// A PDF read back as a person and a viewer would: its document info, each
// page's text, and its link annotations (pdfjs-dist's Node build, the same
// reader as Firefox's viewer).
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface ReadPdf {
  info: Record<string, unknown>;
  /** each page's text, its runs joined by spaces (a run per line or cell) */
  pages: string[];
  /** every link annotation's URI, page by page in order */
  links: string[];
}

// pdfjs draws the 14 standard fonts from these (it warns without them)
const STANDARD_FONTS = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  // pdfjs takes the buffer over: give it a copy
  const pdf = await getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    const links: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .join(' ')
          .replace(/\s+/g, ' '),
      );
      for (const a of (await page.getAnnotations()) as { subtype: string; url?: string }[])
        if (a.subtype === 'Link' && a.url) links.push(a.url);
    }
    const { info } = await pdf.getMetadata();
    return { info: info as Record<string, unknown>, pages, links };
  } finally {
    await pdf.destroy();
  }
}
