import { extname } from 'node:path';
import { Errors } from '@mapi/contracts';

export type DocumentKind = 'pdf' | 'docx' | 'markdown' | 'text';

/** The kind of document by MIME type, then by file extension; null when unsupported. */
export function documentKind(filename: string, mimetype: string): DocumentKind | null {
  const ext = extname(filename).toLowerCase();
  const mime = mimetype.toLowerCase();
  if (mime === 'application/pdf' || ext === '.pdf') return 'pdf';
  if (mime.includes('wordprocessingml') || ext === '.docx') return 'docx';
  if (mime === 'text/markdown' || mime === 'text/x-markdown' || ext === '.md' || ext === '.markdown') return 'markdown';
  if (mime === 'text/plain' || ext === '.txt') return 'text';
  return null;
}

/**
 * pdf-parse's pdf.js (v1.10.100, fake worker in Node) clones its input with
 * `new value.constructor(value)`: for a Node Buffer under 4 KiB that copy is a slice of Node's
 * shared pool with a non-zero byteOffset, and pdf.js's sub-streams then index the pool's whole
 * ArrayBuffer, so a small valid PDF failed with "bad XRef entry" depending on the pool's state.
 * A plain Uint8Array clones into its own zero-offset buffer, so that is what pdf.js is given.
 */
async function readPdf(bytes: Buffer): Promise<string> {
  const pdfParse = require('pdf-parse/lib/pdf-parse.js') as (data: Uint8Array) => Promise<{ text: string }>;
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  try {
    return (await pdfParse(own)).text;
  } catch (error) {
    throw unreadable('PDF', (error as Error)?.message ?? String(error));
  }
}

const unreadable = (kind: string, why: string) =>
  Errors.validation({ 'body.document': { message: `the ${kind} file could not be read: ${why}` } });

/**
 * Plain text of a document. PDF: pdf-parse 1.1 (pure JS, bundles pdf.js; required by its inner
 * module because its index runs a self-test when loaded directly); DOCX: mammoth's raw text;
 * Markdown and text: UTF-8. Scanned PDFs (images only) have no text: a 422.
 */
export async function extractText(kind: DocumentKind, bytes: Buffer): Promise<string> {
  let text: string;
  switch (kind) {
    case 'pdf': {
      text = await readPdf(bytes);
      break;
    }
    case 'docx': {
      const mammoth = require('mammoth') as { extractRawText(input: { buffer: Buffer }): Promise<{ value: string }> };
      try {
        text = (await mammoth.extractRawText({ buffer: bytes })).value;
      } catch (error) {
        throw unreadable('DOCX', (error as Error).message ?? String(error));
      }
      break;
    }
    default:
      if (bytes.includes(0)) throw unreadable(kind === 'markdown' ? 'Markdown' : 'text', 'it contains binary data');
      text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  }
  text = text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
  if (!text) throw Errors.validation({ 'body.document': { message: 'no text could be extracted from the document' } });
  return text;
}
