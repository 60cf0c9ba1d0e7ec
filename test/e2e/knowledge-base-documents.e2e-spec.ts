import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { KbDocumentMetadataSchema, KbEntrySchema } from '@mapi/contracts';
import { AppProcess, createOrg, createToken, freePort, makePdf, testEnv } from '@mapi/testing';
import { startStack, type Stack } from './support/stack';

jest.setTimeout(60_000);

/** A minimal DOCX (Office Open XML) with one paragraph per element of `paragraphs`. */
async function makeDocx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${p}</w:t></w:r></w:p>`).join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('knowledge base: documents', () => {
  let stack: Stack;
  let kb: AppProcess;
  let worker: AppProcess;
  let files: Server;
  let filesUrl: string;
  let storageDir: string;
  const w: Record<string, any> = {};

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const upload = (token: string, filename: string, bytes: Buffer, extra: Record<string, unknown> = {}) =>
    call('POST', '/knowledge-base/document/create', token, { document: { filename, base64: bytes.toString('base64'), ...extra } });

  beforeAll(async () => {
    files = createServer((req, res) => {
      if (req.url === '/big.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(300_000));
      if (req.url === '/faq.md')
        return res
          .writeHead(200, { 'content-type': 'text/markdown' })
          .end('## Do you open on Sunday?\nNo.\n\n## Do you open on Monday?\nYes.');
      if (req.url === '/moved') return res.writeHead(302, { location: '/faq.md' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;

    const namespace = `${testEnv.namespace()}-kbd`;
    stack = await startStack({ NAMESPACE: namespace });
    storageDir = mkdtempSync(join(tmpdir(), 'kb-docs-e2e-'));
    const [kbHealth, workerHealth] = [await freePort(), await freePort()];
    const env = {
      ...stack.env, // its database, NAMESPACE and servers
      HEALTH_HOST: '127.0.0.1',
      MEDIA_STORAGE_ROOT: storageDir, // the media storage (libs/storage, local backend)
      MEDIA_BASE_URL: 'http://media.example.test',
      KB_FETCH_ALLOW_PRIVATE: 'true', // the test's file server is on loopback
      KB_DOCUMENT_MAX_BYTES: '200000',
    };
    kb = AppProcess.start('knowledge-base', { ...env, HEALTH_PORT: String(kbHealth) });
    worker = AppProcess.start('embedding-worker', { ...env, HEALTH_PORT: String(workerHealth) });
    await Promise.all([
      kb.waitReady(`http://127.0.0.1:${kbHealth}/health/ready`),
      worker.waitReady(`http://127.0.0.1:${workerHealth}/health/ready`),
    ]);
    w.orgA = await createOrg(stack.prisma);
    w.orgB = await createOrg(stack.prisma);
    w.tA = (await createToken(stack.prisma, w.orgA.id)).token;
    w.tB = (await createToken(stack.prisma, w.orgB.id)).token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([kb?.stop(), worker?.stop()]);
    await stack?.stop();
    await new Promise((r) => files.close(r));
    rmSync(storageDir, { recursive: true, force: true });
  });

  it('splits a Markdown FAQ into qa chunks sharing a document_id, each an entry of type document', async () => {
    const md =
      '# Shop\n\n## Do you ship abroad?\nYes, to the EU.\n\n## Can I pay by card?\nVisa and Mastercard.\n\n## Is there a warranty?\nTwo years.';
    const res = await upload(w.tA, 'shop faq.md', Buffer.from(md));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        file_name: 'shop faq.md',
        status: 'success',
        reason: null,
        document_id: expect.any(String),
        file_path: expect.stringMatching(
          new RegExp(`^http://media\\.example\\.test/app/media/kb-attachments/${w.orgA.id}/documents/[0-9a-f-]{36}/shop%20faq\\.md$`),
        ),
        chunks_count: 3,
      },
    ]);
    w.mdDoc = res.body[0];
    const doc = await call('GET', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ document_id: w.mdDoc.document_id, file_name: 'shop faq.md', file_path: w.mdDoc.file_path, count: 3 });
    expect(doc.body.data.map((e: any) => [e.question, e.answer])).toEqual([
      ['Do you ship abroad?', 'Yes, to the EU.'],
      ['Can I pay by card?', 'Visa and Mastercard.'],
      ['Is there a warranty?', 'Two years.'],
    ]);
    doc.body.data.forEach((e: any, i: number) => {
      expect(KbEntrySchema.strict().safeParse(e).success).toBe(true);
      expect(e).toMatchObject({ type: 'document', document_id: w.mdDoc.document_id, is_active: false, org_id: w.orgA.id });
      expect(KbDocumentMetadataSchema.strict().parse(e.metadata)).toEqual({
        fileName: 'shop faq.md',
        filePath: w.mdDoc.file_path,
        chunkIndex: i,
        tokenCount: expect.any(Number),
        source: 'qa',
      });
    });
    expect(existsSync(join(storageDir, 'kb-attachments', w.orgA.id, 'documents', w.mdDoc.document_id, 'shop faq.md'))).toBe(true);
  });

  it('embeds the chunks, so search finds them', async () => {
    for (let i = 0; i < 100; i++) {
      const doc = await call('GET', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA);
      if (doc.body.data.every((e: any) => e.embedding)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await call('POST', '/knowledge-base/search', w.tA, { query: 'warranty years', type: 'document', k: 1 });
    expect(res.body.data[0]).toMatchObject({ question: 'Is there a warranty?', document_id: w.mdDoc.document_id });
  });

  it('reads PDF, DOCX and plain text (paragraph and text sources)', async () => {
    const pdf = await upload(
      w.tA,
      'menu.pdf',
      makePdf(['Q: Is there a vegan menu?', 'A: Yes, every day.', 'Q: Do you deliver?', 'A: Within 5 km.']),
    );
    if (pdf.status !== 200) throw new Error(`PDF upload answered ${pdf.status}: ${JSON.stringify(pdf.body)}`);
    const pdfDoc = await call('GET', `/knowledge-base/document/${pdf.body[0].document_id}`, w.tA);
    expect(pdfDoc.body.data.map((e: any) => [e.question, e.answer, e.metadata.source])).toEqual([
      ['Is there a vegan menu?', 'Yes, every day.', 'qa'],
      ['Do you deliver?', 'Within 5 km.', 'qa'],
    ]);

    const docx = await upload(
      w.tA,
      'policy.docx',
      await makeDocx(['Returns are accepted within 30 days.', 'Refunds go back to the card.']),
    );
    expect(docx.status).toBe(200);
    const docxDoc = await call('GET', `/knowledge-base/document/${docx.body[0].document_id}`, w.tA);
    expect(docxDoc.body.data).toHaveLength(1);
    expect(docxDoc.body.data[0].answer).toBe('Returns are accepted within 30 days.\n\nRefunds go back to the card.');
    expect(docxDoc.body.data[0].metadata.source).toBe('paragraph');

    const txt = await upload(w.tA, 'notes.txt', Buffer.from(Array.from({ length: 300 }, (_, i) => `note${i}`).join(' ')), {
      mimetype: 'text/plain',
    });
    const txtDoc = await call('GET', `/knowledge-base/document/${txt.body[0].document_id}`, w.tA);
    expect(txtDoc.body.count).toBeGreaterThan(1);
    expect(txtDoc.body.data.every((e: any) => e.metadata.source === 'text')).toBe(true);
  });

  it('fetches a document by url; refuses redirects and files over the size limit (413)', async () => {
    const ok = await call('POST', '/knowledge-base/document/create', w.tA, {
      document: { filename: 'hours.md', url: `${filesUrl}/faq.md` },
      is_active: true,
    });
    expect(ok.status).toBe(200);
    expect(ok.body[0].chunks_count).toBe(2);
    const moved = await call('POST', '/knowledge-base/document/create', w.tA, {
      document: { filename: 'hours.md', url: `${filesUrl}/moved` },
    });
    expect(moved.status).toBe(422);
    expect(moved.body.fields['body.document.url'].message).toMatch(/redirects/);
    const big = await call('POST', '/knowledge-base/document/create', w.tA, {
      document: { filename: 'big.txt', url: `${filesUrl}/big.txt` },
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413, message: expect.stringMatching(/200000 bytes/) });
    const missing = await call('POST', '/knowledge-base/document/create', w.tA, {
      document: { filename: 'x.md', url: `${filesUrl}/nope` },
    });
    expect(missing.status).toBe(422);
  });

  it.each([
    [
      'an unsupported type',
      { filename: 'photo.png', base64: Buffer.from('png').toString('base64') },
      'body.document.filename',
      /unsupported document type/,
    ],
    [
      'a corrupt PDF',
      { filename: 'broken.pdf', base64: Buffer.from('not a pdf at all').toString('base64') },
      'body.document',
      /PDF file could not be read/,
    ],
    [
      'a corrupt DOCX',
      { filename: 'broken.docx', base64: Buffer.from('not a zip').toString('base64') },
      'body.document',
      /DOCX file could not be read/,
    ],
    ['an empty text', { filename: 'empty.txt', base64: Buffer.from('   \n ').toString('base64') }, 'body.document', /no text/],
    ['no content source', { filename: 'a.txt' }, 'body.document', /exactly one of/],
  ])('refuses %s with 422 and stores nothing', async (_what, document, field, message) => {
    const before = (await call('GET', '/knowledge-base?type=document&limit=1000', w.tA)).body.count;
    const res = await call('POST', '/knowledge-base/document/create', w.tA, { document });
    expect(res.status).toBe(422);
    expect(res.body.fields[field].message).toMatch(message);
    expect((await call('GET', '/knowledge-base?type=document&limit=1000', w.tA)).body.count).toBe(before);
  });

  it("keeps documents to their organization: GET and DELETE of another organization's document are 404", async () => {
    const get = await call('GET', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tB);
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404 });
    const del = await call('DELETE', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tB);
    expect(del.status).toBe(404);
    expect((await call('GET', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA)).body.count).toBe(3);
    const search = await call('POST', '/knowledge-base/search', w.tB, { query: 'warranty years', k: 100 });
    expect(search.body.data).toEqual([]);
  });

  it('does not delete a document chunk through the FAQ route', async () => {
    const doc = await call('GET', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA);
    const res = await call('DELETE', `/knowledge-base/faq/${doc.body.data[0].context_id}`, w.tA);
    expect(res.status).toBe(422);
    expect(res.body.fields.context_id.message).toMatch(/DELETE \/knowledge-base\/document\/\{document_id\}/);
  });

  it('deletes every chunk of a document and its stored file; a second delete is 404', async () => {
    const res = await call('DELETE', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ document_id: w.mdDoc.document_id, deleted_count: 3 });
    const rows = await stack.prisma.$queryRaw<
      unknown[]
    >`SELECT 1 FROM knowledge_base_entries WHERE document_id = ${w.mdDoc.document_id}::uuid`;
    expect(rows).toHaveLength(0);
    expect(existsSync(join(storageDir, 'kb-attachments', w.orgA.id, 'documents', w.mdDoc.document_id))).toBe(false); // the file and its folder
    expect((await call('GET', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA)).status).toBe(404);
    expect((await call('DELETE', `/knowledge-base/document/${w.mdDoc.document_id}`, w.tA)).status).toBe(404);
    const malformed = await call('DELETE', '/knowledge-base/document/abc', w.tA);
    expect(malformed.status).toBe(422);
    expect(malformed.body.fields.document_id).toMatchObject({ value: 'abc' });
  });
});
