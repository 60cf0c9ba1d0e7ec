import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createOrg, createToken, randomSuffix, testEnv } from '@mapi/testing';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Upload routes (contract `upload`): multipart/form-data and large JSON bodies, carried to the service
 * over NATS in chunks (the files here are larger than max_payload), with 413/415/422 in the envelope.
 * Real Postgres, Redis and NATS; a test service answers with what it received.
 */
describe('gateway uploads (integration)', () => {
  const namespace = `gwup${randomSuffix(3)}`;
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  let stack: TestGateway;
  let prisma: PrismaClient;
  let base: string;
  let token: string;

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    const org = await createOrg(prisma);
    token = (await createToken(prisma, org.id)).token;
    const env = {
      ...process.env,
      DATABASE_URL: testEnv.databaseUrl(),
      REDIS_URL: testEnv.redisUrl(),
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: namespace,
      BODY_LIMIT_BYTES: '1024',
      UPLOAD_MAX_FILE_BYTES: String(3 * MiB),
      RPC_TIMEOUT_MS: '10000',
      AUTH_CACHE_TTL_MS: '0',
    };
    stack = await startTestGateway({ env, gatewayLog: quiet, serviceLog: quiet, validateReplies: true });
    base = stack.base;
  });

  afterAll(async () => {
    await stack?.close();
    await prisma?.$disconnect();
  });

  const send = async (path: string, body: string | FormData, headers: Record<string, string> = {}, auth: string | null = token) => {
    const res = await fetch(`${base}/v1${path}`, {
      method: 'POST',
      headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...headers },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const form = (fields: Record<string, string>, files: Array<[string, Buffer, string, string?]> = []) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    for (const [name, bytes, filename, type] of files) f.append(name, new Blob([bytes], type ? { type } : {}), filename);
    return f;
  };

  it('takes a multipart file of several MiB (over NATS max_payload) with its text fields', async () => {
    const bytes = randomBytes(2.5 * MiB);
    const res = await send(
      '/test/upload',
      form({ is_active: 'true', note: 'hello' }, [['document', bytes, 'manual.pdf', 'application/pdf']]),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      filename: 'manual.pdf',
      mimetype: 'application/pdf',
      size: bytes.length,
      sha256: sha(bytes),
      is_active: true,
      note: 'hello',
    });
  });

  it('accepts the other part names and lets text parts name the file', async () => {
    const bytes = Buffer.from('# Title\n\nSome text');
    for (const part of ['file', 'document.file', 'document[file]']) {
      const res = await send(
        '/test/upload',
        form({ 'document[filename]': 'notes.md', 'document.mimetype': 'text/markdown' }, [[part, bytes, 'upload.bin']]),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ filename: 'notes.md', mimetype: 'text/markdown', size: bytes.length, is_active: false });
    }
  });

  it('takes a JSON body with the file in base64 larger than BODY_LIMIT_BYTES on an upload route', async () => {
    const bytes = randomBytes(2 * MiB);
    const res = await send('/test/upload', JSON.stringify({ document: { filename: 'big.bin', base64: bytes.toString('base64') } }), {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ size: bytes.length, sha256: sha(bytes) });
  });

  it('answers 413 for a file over UPLOAD_MAX_FILE_BYTES, multipart or JSON', async () => {
    const big = randomBytes(3 * MiB + 1);
    const multi = await send('/test/upload', form({}, [['document', big, 'big.bin']]));
    expect(multi.status).toBe(413);
    expect(multi.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413, message: expect.stringMatching(/3145728 bytes/) });
    const json = await send(
      '/test/upload',
      JSON.stringify({ document: { filename: 'big.bin', base64: randomBytes(4 * MiB).toString('base64') } }),
      { 'content-type': 'application/json' },
    );
    expect(json.status).toBe(413);
    expect(json.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413 });
  });

  it('answers 415 for multipart on a JSON-only route and for other content types on an upload route', async () => {
    const multi = await send('/test/echo', form({ text: 'hi' }));
    expect(multi.status).toBe(415);
    expect(multi.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE_ERROR', status: 415 });
    const text = await send('/test/upload', '%PDF-1.4 raw bytes', { 'content-type': 'application/pdf' });
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE_ERROR', status: 415 });
  });

  it.each([
    [
      'two files',
      () =>
        form({}, [
          ['document', Buffer.from('a'), 'a.txt'],
          ['file', Buffer.from('b'), 'b.txt'],
        ]),
      'body.document',
      /only one file/,
    ],
    ['a file in another part', () => form({}, [['photo', Buffer.from('a'), 'a.png']]), 'body.photo', /unexpected file part/],
    ['no file at all', () => form({ note: 'x' }), 'body.document', /./],
    [
      'a boolean field that is not true/false',
      () => form({ is_active: 'maybe' }, [['document', Buffer.from('a'), 'a.txt']]),
      'body.is_active',
      /boolean/,
    ],
    ['an empty file', () => form({}, [['document', Buffer.alloc(0), 'empty.txt']]), 'body.document.file', /./],
    [
      'a field name that would reach the prototype',
      () => form({ '__proto__[polluted]': 'yes' }, [['document', Buffer.from('a'), 'a.txt']]),
      'body.__proto__[polluted]',
      /not a valid field name/,
    ],
    [
      'a field that conflicts with another',
      () => form({ note: 'text', 'note[part]': 'more' }, [['document', Buffer.from('a'), 'a.txt']]),
      'body.note.part',
      /conflicts/,
    ],
    [
      'the file given as a part and as text',
      () => form({ 'document[file]': 'YQ==' }, [['document', Buffer.from('a'), 'a.txt']]),
      'body.document.file',
      /given twice/,
    ],
  ])('answers 422 with fields for %s', async (_what, make, field, message) => {
    const res = await send('/test/upload', make());
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    expect(res.body.fields[field].message).toMatch(message);
  });

  it('answers 422 for a malformed multipart body, and 401 before reading a body without a token', async () => {
    const bad = await send('/test/upload', '--nope\r\ngarbage', { 'content-type': 'multipart/form-data; boundary=xyz' });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.body.message).toMatch(/multipart/);
    const anonymous = await send('/test/upload', form({}, [['document', Buffer.from('a'), 'a.txt']]), {}, null);
    expect(anonymous.status).toBe(401);
  });
});
