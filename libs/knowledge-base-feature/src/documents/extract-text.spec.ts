import { makePdf } from '@mapi/testing';
import { extractText } from './extract-text';

describe('extractText: PDF', () => {
  // pdf.js copies a Buffer input into Node's shared pool; when that copy lands at a non-zero
  // offset, a reader that ignores byteOffset reads the wrong bytes ("bad XRef entry"). Each read
  // here first shifts the pool by a different amount, so both offsets (zero and not) are covered.
  it("reads a small valid PDF whatever the state of Node's buffer pool", async () => {
    const pdf = makePdf(['Q: Is there a vegan menu?', 'A: Yes, every day.', 'Q: Do you deliver?', 'A: Within 5 km.']);
    for (let shift = 0; shift < 12; shift++) {
      Buffer.allocUnsafe(1 + shift * 97);
      const pooled = Buffer.from(pdf);
      const text = await extractText('pdf', pooled);
      expect(text).toContain('Is there a vegan menu?');
      expect(text).toContain('Within 5 km.');
    }
  });

  it('reads a PDF handed over as a view into a larger buffer', async () => {
    const pdf = makePdf(['Hello from an offset view']);
    const backing = new ArrayBuffer(pdf.length + 1000);
    const view = Buffer.from(backing, 1000, pdf.length);
    pdf.copy(view);
    expect(await extractText('pdf', view)).toContain('Hello from an offset view');
  });

  it('rejects a corrupt PDF with a 422 naming the reason', async () => {
    await expect(extractText('pdf', Buffer.from('%PDF-1.4\nnot really a pdf'))).rejects.toMatchObject({ status: 422 });
  });
});
