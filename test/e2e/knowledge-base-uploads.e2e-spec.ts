import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, createOrg, createToken, freePort, makePdf, testEnv } from '@mapi/testing';
import { startStack, type Stack } from './support/stack';

jest.setTimeout(120_000);

const MiB = 1024 * 1024;
const SIGNING_KEYS = [{ kid: 'kbu1', secret: 'kb-uploads-e2e-media-secret-0123456789abcdef' }];

/**
 * Large files through the real gateway, knowledge-base service, embedding worker and media app: multipart
 * and base64 JSON of several MiB (over NATS max_payload and over the gateway's 10 MiB JSON limit for other
 * routes), size and type errors, and stored files that the media app serves.
 */
describe('knowledge base: uploads', () => {
  let stack: Stack;
  const procs: AppProcess[] = [];
  let storageRoot: string;
  let mediaUrl: string;
  const w: Record<string, any> = {};

  const api = async (method: string, path: string, body?: unknown, token = w.tA) => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${stack.baseUrl}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const form = (fields: Record<string, string>, part: string, bytes: Buffer, filename: string, type: string) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    f.append(part, new Blob([bytes], { type }), filename);
    return f;
  };
  /** The stored file, through a signed link from POST /media/migrate-url, from the media app. */
  const download = async (link: string) => {
    const signed = await api('POST', '/media/migrate-url', { url: link, access: 'private' });
    expect(signed.status).toBe(200);
    const res = await fetch(signed.body.url);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    const namespace = `${testEnv.namespace()}-kbu`;
    stack = await startStack({ NAMESPACE: namespace });
    storageRoot = mkdtempSync(join(tmpdir(), 'kb-uploads-e2e-'));
    const mediaPort = await freePort();
    mediaUrl = `http://127.0.0.1:${mediaPort}`;
    const env = {
      ...stack.env, // its database, NAMESPACE and servers
      HEALTH_HOST: '127.0.0.1',
      MEDIA_STORAGE_ROOT: storageRoot, // one media storage: the knowledge base writes, the media app serves
      MEDIA_BASE_URL: mediaUrl,
      KB_DOCUMENT_MAX_BYTES: String(12 * MiB),
    };
    const [kbHealth, workerHealth] = [await freePort(), await freePort()];
    procs.push(AppProcess.start('knowledge-base', { ...env, HEALTH_PORT: String(kbHealth) }));
    procs.push(AppProcess.start('embedding-worker', { ...env, HEALTH_PORT: String(workerHealth) }));
    procs.push(
      AppProcess.start('media', {
        ...env,
        MEDIA_HTTP_PORT: String(mediaPort),
        MEDIA_HTTP_HOST: '127.0.0.1',
        MEDIA_JWT_KEYS: JSON.stringify(SIGNING_KEYS),
      }),
    );
    await Promise.all([
      procs[0].waitReady(`http://127.0.0.1:${kbHealth}/health/ready`),
      procs[1].waitReady(`http://127.0.0.1:${workerHealth}/health/ready`),
      procs[2].waitReady(`${mediaUrl}/health/ready`),
    ]);
    w.orgA = await createOrg(stack.prisma);
    w.orgB = await createOrg(stack.prisma);
    w.tA = (await createToken(stack.prisma, w.orgA.id)).token;
    w.tB = (await createToken(stack.prisma, w.orgB.id)).token;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await stack?.stop();
    rmSync(storageRoot, { recursive: true, force: true });
  });

  it('takes a 9 MiB PDF as a multipart file: chunks it, stores it, and the media app serves it', async () => {
    const pdf = makePdf(['Q: Do you repair bikes?', 'A: Yes, in two days.', 'Q: Do you rent bikes?', 'A: By the hour.'], 9 * MiB);
    expect(pdf.length).toBeGreaterThan(9 * MiB);
    const res = await api(
      'POST',
      '/knowledge-base/document/create',
      form({ is_active: 'true' }, 'document', pdf, 'bike shop.pdf', 'application/pdf'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        file_name: 'bike shop.pdf',
        status: 'success',
        reason: null,
        document_id: expect.any(String),
        chunks_count: 2,
        file_path: `${mediaUrl}/app/media/kb-attachments/${w.orgA.id}/documents/${res.body[0].document_id}/bike%20shop.pdf`,
      },
    ]);
    const doc = await api('GET', `/knowledge-base/document/${res.body[0].document_id}`);
    expect(doc.body.data.map((e: any) => [e.question, e.answer, e.is_active])).toEqual([
      ['Do you repair bikes?', 'Yes, in two days.', true],
      ['Do you rent bikes?', 'By the hour.', true],
    ]);
    const served = await download(res.body[0].file_path);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(pdf)).toBe(true);
  });

  it('takes a 9 MiB PDF as base64 JSON (a 12 MiB body, over NATS max_payload many times)', async () => {
    const pdf = makePdf(['Opening hours are nine to five on weekdays.'], 9 * MiB);
    const res = await api('POST', '/knowledge-base/document/create', {
      document: { filename: 'hours.pdf', base64: pdf.toString('base64') },
    });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ status: 'success', chunks_count: 1 });
    expect((await download(res.body[0].file_path)).bytes.equals(pdf)).toBe(true);
  });

  it('answers 413 above KB_DOCUMENT_MAX_BYTES (multipart and JSON) and 422 for a file type it cannot read', async () => {
    const big = randomBytes(12 * MiB + 1);
    const multi = await api('POST', '/knowledge-base/document/create', form({}, 'document', big, 'big.txt', 'text/plain'));
    expect(multi.status).toBe(413);
    expect(multi.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413, message: expect.stringMatching(/12582912 bytes/) });
    const json = await api('POST', '/knowledge-base/document/create', {
      document: { filename: 'big.txt', base64: big.toString('base64') },
    });
    expect(json.status).toBe(413);
    expect(json.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413 });
    const exe = await api(
      'POST',
      '/knowledge-base/document/create',
      form({}, 'document', Buffer.from('MZ\x90\x00'), 'tool.exe', 'application/x-msdownload'),
    );
    expect(exe.status).toBe(422);
    expect(exe.body.fields['body.document.filename'].message).toMatch(/unsupported document type/);
    const raw = await fetch(`${stack.baseUrl}/v1/knowledge-base/document/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.tA}`, 'content-type': 'application/pdf' },
      body: Buffer.from('%PDF'),
    });
    expect(raw.status).toBe(415);
    expect(await raw.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE_ERROR', status: 415 });
  });

  it('creates an FAQ with a multipart attachment (attachment.file) stored in the media storage', async () => {
    const bytes = randomBytes(3 * MiB);
    const res = await api(
      'POST',
      '/knowledge-base/faq/create',
      form(
        { question: 'Where is the price list?', answer: 'Attached.', is_active: 'true' },
        'attachment.file',
        bytes,
        'prices 2026.pdf',
        'application/pdf',
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'faq', question: 'Where is the price list?', is_active: true });
    const link = res.body.attachments[0].link;
    expect(link).toEqual({
      url: expect.stringMatching(new RegExp(`^${mediaUrl}/app/media/kb-attachments/${w.orgA.id}/[0-9a-f-]{36}/prices%202026\\.pdf$`)),
      type: 'application/pdf',
      name: 'prices 2026.pdf',
    });
    const served = await download(link.url);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);
    expect((await fetch(link.url)).status).toBe(401); // a private file: no token, no file
    // Another organization cannot sign it.
    const foreign = await api('POST', '/media/migrate-url', { url: link.url }, w.tB);
    expect(foreign.status).toBe(403);
    // Deleting the FAQ deletes the stored file.
    expect((await api('DELETE', `/knowledge-base/faq/${res.body.context_id}`)).status).toBe(200);
    expect((await download(link.url)).status).toBe(404);
  });

  it('refuses a multipart FAQ with two content sources or no question with 422', async () => {
    const two = await api(
      'POST',
      '/knowledge-base/faq/create',
      form(
        { question: 'q', answer: 'a', 'attachment.url': 'https://cdn.example.com/x.pdf' },
        'attachment',
        Buffer.from('x'),
        'x.pdf',
        'application/pdf',
      ),
    );
    expect(two.status).toBe(422);
    expect(two.body.fields['body.attachment'].message).toMatch(/exactly one of file, url, base64/);
    const none = await api(
      'POST',
      '/knowledge-base/faq/create',
      form({ answer: 'a' }, 'attachment', Buffer.from('x'), 'x.pdf', 'application/pdf'),
    );
    expect(none.status).toBe(422);
    expect(none.body.fields['body.question']).toBeDefined();
  });
});
