import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KbEntrySchema } from '@mapi/contracts';
import { AppProcess, createOrg, createToken, freePort, testEnv } from '@mapi/testing';
import { callApi, expectEnvelope } from './support/http';
import { startStack, type Stack } from './support/stack';

/** The FAQ routes (spec 4.2, 4.3, GET/PATCH), listing and search end to end: gateway, knowledge-base, embedding worker. */
jest.setTimeout(60_000);

describe('knowledge base: FAQs, listing and search', () => {
  let stack: Stack;
  let kb: AppProcess;
  let worker: AppProcess;
  let storageDir: string;
  const MEDIA = 'http://media.example.test';
  const w: Record<string, any> = {};

  const call = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
    callApi(stack.baseUrl, method, path, token, body, headers);
  const createFaq = (token: string, body: Record<string, unknown>) => call('POST', '/knowledge-base/faq/create', token, body);
  const seed = async (orgId: string, type: 'document' | 'self-learned', question = 'seeded question', answer = 'seeded answer') => {
    const rows = await stack.prisma.$queryRaw<Array<{ context_id: string }>>`
      INSERT INTO knowledge_base_entries (org_id, type, question, answer, is_active, document_id, metadata)
      VALUES (${orgId}::uuid, ${type}, ${question}, ${answer}, true, ${type === 'document' ? crypto.randomUUID() : null}::uuid,
              ${type === 'document' ? JSON.stringify({ fileName: 'a.txt', filePath: 'x', chunkIndex: 0, tokenCount: 2, source: 'text' }) : null}::jsonb)
      RETURNING context_id::text AS context_id`;
    return rows[0].context_id;
  };
  const waitForEmbedding = async (contextId: string, token: string) => {
    for (let i = 0; i < 100; i++) {
      const res = await call('GET', `/knowledge-base/faq/${contextId}`, token);
      if (res.body.embedding) return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no embedding for ${contextId}`);
  };

  beforeAll(async () => {
    // A namespace of this file's own: the services and the embedding queue of other e2e files must not answer here.
    const namespace = `${testEnv.namespace()}-kbf`;
    stack = await startStack({ NAMESPACE: namespace });
    storageDir = mkdtempSync(join(tmpdir(), 'kb-e2e-'));
    const [kbHealth, workerHealth] = [await freePort(), await freePort()];
    const env = {
      ...stack.env, // its database, NAMESPACE and servers
      HEALTH_HOST: '127.0.0.1',
      MEDIA_STORAGE_ROOT: storageDir, // the media storage (libs/storage, local backend)
      MEDIA_BASE_URL: MEDIA,
      KB_ATTACHMENT_MAX_BYTES: '1000000',
    };
    kb = AppProcess.start('knowledge-base', { ...env, HEALTH_PORT: String(kbHealth) });
    worker = AppProcess.start('embedding-worker', { ...env, HEALTH_PORT: String(workerHealth) });
    await Promise.all([
      kb.waitReady(`http://127.0.0.1:${kbHealth}/health/ready`),
      worker.waitReady(`http://127.0.0.1:${workerHealth}/health/ready`),
    ]);
    const p = stack.prisma;
    w.orgA = await createOrg(p);
    w.orgB = await createOrg(p);
    w.tA = (await createToken(p, w.orgA.id)).token;
    w.tB = (await createToken(p, w.orgB.id)).token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([kb?.stop(), worker?.stop()]);
    await stack?.stop();
    rmSync(storageDir, { recursive: true, force: true });
  });

  describe('POST /knowledge-base/faq/create (spec 4.2)', () => {
    it('answers the whole created entry: type faq, inactive by default, embedded', async () => {
      const res = await createFaq(w.tA, { question: 'How do I get a refund?', answer: 'Write to billing within 30 days.' });
      expect(res.status).toBe(200);
      expect(KbEntrySchema.strict().safeParse(res.body).success).toBe(true);
      expect(res.body).toMatchObject({
        org_id: w.orgA.id,
        question: 'How do I get a refund?',
        answer: 'Write to billing within 30 days.',
        type: 'faq',
        is_active: false,
        attachments: null,
        avg_rating: null,
        document_id: null,
        metadata: null,
        tags: null,
        updated_at: null,
      });
      expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // The worker answers within the create's wait (1.5 s by default): the vector is in the answer.
      const vector = JSON.parse(res.body.embedding);
      expect(vector).toHaveLength(384);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 3);
      w.refund = res.body;
    });

    it('keeps is_active true when given', async () => {
      const res = await createFaq(w.tA, { question: 'Opening hours?', answer: 'Nine to five, Monday to Friday.', is_active: true });
      expect(res.status).toBe(200);
      expect(res.body.is_active).toBe(true);
      w.hours = res.body;
    });

    it('stores a base64 attachment through the media storage and links it as { link: { url, type, name } }', async () => {
      const bytes = Buffer.from('%PDF-1.4 a small refund policy');
      const res = await createFaq(w.tA, {
        question: 'Where is the policy?',
        answer: 'Attached.',
        attachment: { filename: 'refund policy.pdf', base64: bytes.toString('base64') },
      });
      expect(res.status).toBe(200);
      expect(res.body.attachments).toHaveLength(1);
      const link = res.body.attachments[0].link;
      expect(link).toEqual({ url: expect.any(String), type: 'application/pdf', name: 'refund policy.pdf' });
      const m = new RegExp(`^${MEDIA}/app/media/kb-attachments/${w.orgA.id}/([0-9a-f-]{36})/refund%20policy\\.pdf$`).exec(link.url);
      expect(m).not.toBeNull();
      expect(readFileSync(join(storageDir, 'kb-attachments', w.orgA.id, m![1], 'refund policy.pdf'))).toEqual(bytes);
      w.withFile = { ...res.body, dir: join(storageDir, 'kb-attachments', w.orgA.id, m![1]) };
    });

    it('takes `file` as a data URL (its MIME type kept) and keeps a `url` attachment as a reference', async () => {
      const dataUrl = `data:image/png;base64,${Buffer.from('png bytes').toString('base64')}`;
      const a = await createFaq(w.tA, { question: 'Logo?', answer: 'This one.', attachment: { filename: 'logo.png', file: dataUrl } });
      expect(a.status).toBe(200);
      expect(a.body.attachments[0].link).toMatchObject({ type: 'image/png', name: 'logo.png' });
      const b = await createFaq(w.tA, {
        question: 'Menu?',
        answer: 'See the menu.',
        attachment: { filename: 'menu.pdf', url: 'https://cdn.example.com/menu.pdf' },
      });
      expect(b.status).toBe(200);
      expect(b.body.attachments).toEqual([
        { link: { url: 'https://cdn.example.com/menu.pdf', type: 'application/pdf', name: 'menu.pdf' } },
      ]);
    });

    it('accepts the older `attachments: string[]` of URLs', async () => {
      const res = await createFaq(w.tA, {
        question: 'Photos?',
        answer: 'Two.',
        attachments: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b%20c.png'],
      });
      expect(res.status).toBe(200);
      expect(res.body.attachments).toEqual([
        { link: { url: 'https://cdn.example.com/a.jpg', type: 'image/jpeg', name: 'a.jpg' } },
        { link: { url: 'https://cdn.example.com/b%20c.png', type: 'image/png', name: 'b c.png' } },
      ]);
    });

    it.each([
      ['no question', { answer: 'a' }, 'body.question'],
      ['an empty question', { question: '', answer: 'a' }, 'body.question'],
      ['an empty answer', { question: 'q', answer: '' }, 'body.answer'],
      ['a non-boolean is_active', { question: 'q', answer: 'a', is_active: 'yes' }, 'body.is_active'],
      ['an attachment with no content source', { question: 'q', answer: 'a', attachment: { filename: 'x.pdf' } }, 'body.attachment'],
      [
        'an attachment with two content sources',
        { question: 'q', answer: 'a', attachment: { filename: 'x.pdf', url: 'https://e.com/x.pdf', base64: 'AAAA' } },
        'body.attachment',
      ],
      ['an attachment without filename', { question: 'q', answer: 'a', attachment: { base64: 'AAAA' } }, 'body.attachment.filename'],
      [
        'an attachment url that is not http(s)',
        { question: 'q', answer: 'a', attachment: { filename: 'x', url: 'ftp://e.com/x' } },
        'body.attachment.url',
      ],
      ['attachments that are not URLs', { question: 'q', answer: 'a', attachments: ['not a url'] }, 'body.attachments.0'],
    ])('refuses %s with 422 naming the field', async (_what, body, field) => {
      const res = await createFaq(w.tA, body);
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
      expect(Object.keys(res.body.fields)).toContain(field);
    });

    it('says which content sources were given when there are two', async () => {
      const res = await createFaq(w.tA, {
        question: 'q',
        answer: 'a',
        attachment: { filename: 'x', url: 'https://e.com/x', base64: 'AAAA' },
      });
      expect(res.body.fields['body.attachment'].message).toBe('exactly one of file, url, base64 is required; got url and base64');
    });

    it('refuses invalid base64 with 422 and stores nothing', async () => {
      const before = await call('GET', '/knowledge-base?limit=1000', w.tA);
      const res = await createFaq(w.tA, { question: 'q', answer: 'a', attachment: { filename: 'x.bin', base64: 'not base64!!' } });
      expect(res.status).toBe(422);
      expect(res.body.fields['body.attachment.base64']).toBeDefined();
      expect((await call('GET', '/knowledge-base?limit=1000', w.tA)).body.count).toBe(before.body.count);
    });

    it('refuses an attachment over KB_ATTACHMENT_MAX_BYTES with 413 and stores nothing', async () => {
      const before = await call('GET', '/knowledge-base?limit=1000', w.tA);
      const big = await createFaq(w.tA, { question: 'q', answer: 'a', attachment: { filename: 'x.bin', base64: 'A'.repeat(1_400_000) } });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE_ERROR', status: 413, message: expect.stringMatching(/1000000 bytes/) });
      expect((await call('GET', '/knowledge-base?limit=1000', w.tA)).body.count).toBe(before.body.count);
    });

    it('refuses a missing or invalid token with 401', async () => {
      const res = await createFaq('mapi_nope', { question: 'q', answer: 'a' });
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    });
  });

  describe('GET and PATCH /knowledge-base/faq/{context_id}', () => {
    it("gets an entry of the organization, and 404s another organization's", async () => {
      const own = await call('GET', `/knowledge-base/faq/${w.refund.context_id}`, w.tA);
      expect(own.status).toBe(200);
      expect(own.body).toEqual(w.refund);
      const other = await call('GET', `/knowledge-base/faq/${w.refund.context_id}`, w.tB);
      expect(other.status).toBe(404);
      expectEnvelope(other.body, 'NOT_FOUND_ERROR', 404);
      const malformed = await call('GET', '/knowledge-base/faq/not-a-uuid', w.tA);
      expect(malformed.status).toBe(422);
      expect(malformed.body.fields.context_id).toMatchObject({ value: 'not-a-uuid' });
    });

    it('changes is_active without touching the embedding', async () => {
      const res = await call('PATCH', `/knowledge-base/faq/${w.refund.context_id}`, w.tA, { is_active: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ is_active: true, question: w.refund.question, embedding: w.refund.embedding });
      expect(res.body.updated_at).not.toBeNull();
    });

    it('gives a changed text a new embedding', async () => {
      const res = await call('PATCH', `/knowledge-base/faq/${w.refund.context_id}`, w.tA, {
        answer: 'Refunds are paid back to the card within 5 days.',
      });
      expect(res.status).toBe(200);
      expect(res.body.answer).toBe('Refunds are paid back to the card within 5 days.');
      const after = res.body.embedding ? res.body : await waitForEmbedding(w.refund.context_id, w.tA);
      expect(after.embedding).not.toBe(w.refund.embedding);
      expect(JSON.parse(after.embedding)).toHaveLength(384);
      w.refund = after;
    });

    it('replaces attachments with a list of URLs, and [] removes them (and the stored file)', async () => {
      const res = await call('PATCH', `/knowledge-base/faq/${w.withFile.context_id}`, w.tA, {
        attachments: ['https://cdn.example.com/new.pdf'],
      });
      expect(res.status).toBe(200);
      expect(res.body.attachments).toEqual([
        { link: { url: 'https://cdn.example.com/new.pdf', type: 'application/pdf', name: 'new.pdf' } },
      ]);
      expect(() => readFileSync(join(w.withFile.dir, 'refund policy.pdf'))).toThrow();
      const cleared = await call('PATCH', `/knowledge-base/faq/${w.withFile.context_id}`, w.tA, { attachments: [] });
      expect(cleared.body.attachments).toBeNull();
    });

    it("approves a self-learned entry, refuses a document chunk, and 404s another organization's entry", async () => {
      const learned = await seed(w.orgA.id, 'self-learned');
      const approved = await call('PATCH', `/knowledge-base/faq/${learned}`, w.tA, { is_active: false });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ type: 'self-learned', is_active: false });
      const chunk = await seed(w.orgA.id, 'document');
      const refused = await call('PATCH', `/knowledge-base/faq/${chunk}`, w.tA, { answer: 'x' });
      expect(refused.status).toBe(422);
      expect(refused.body.fields.context_id.message).toMatch(/type document/);
      const foreign = await call('PATCH', `/knowledge-base/faq/${w.refund.context_id}`, w.tB, { answer: 'hijacked' });
      expect(foreign.status).toBe(404);
      expect((await call('GET', `/knowledge-base/faq/${w.refund.context_id}`, w.tA)).body.answer).not.toBe('hijacked');
    });

    it('refuses an empty change with 422', async () => {
      const res = await call('PATCH', `/knowledge-base/faq/${w.refund.context_id}`, w.tA, {});
      expect(res.status).toBe(422);
      expect(res.body.fields.body.message).toMatch(/nothing to change/);
    });
  });

  describe('GET /knowledge-base', () => {
    it("lists the organization's entries newest first with the total count, filtered by type and is_active", async () => {
      const all = await call('GET', '/knowledge-base?limit=1000', w.tA);
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(all.body.data.length);
      expect(all.body.data.every((e: any) => e.org_id === w.orgA.id)).toBe(true);
      const times = all.body.data.map((e: any) => e.created_at);
      expect(times).toEqual([...times].sort().reverse());
      expect(new Set(all.body.data.map((e: any) => e.type))).toEqual(new Set(['faq', 'self-learned', 'document']));

      const faqs = await call('GET', '/knowledge-base?type=faq', w.tA);
      expect(faqs.body.data.every((e: any) => e.type === 'faq')).toBe(true);
      const learned = await call('GET', '/knowledge-base?type=self-learned', w.tA);
      expect(learned.body.count).toBe(1);
      const active = await call('GET', '/knowledge-base?is_active=true&type=faq', w.tA);
      expect(active.body.data.map((e: any) => e.context_id).sort()).toEqual([w.refund.context_id, w.hours.context_id].sort());

      const page = await call('GET', '/knowledge-base?offset=1&limit=2', w.tA);
      expect(page.body.count).toBe(all.body.count);
      expect(page.body.data.map((e: any) => e.context_id)).toEqual(all.body.data.slice(1, 3).map((e: any) => e.context_id));
    });

    it('shows another organization none of them', async () => {
      const res = await call('GET', '/knowledge-base', w.tB);
      expect(res.body).toEqual({ data: [], count: 0 });
    });

    it.each([
      ['type=video', 'type'],
      ['is_active=maybe', 'is_active'],
      ['limit=1001', 'limit'],
      ['offset=-1', 'offset'],
    ])('refuses %s with 422', async (qs, field) => {
      const res = await call('GET', `/knowledge-base?${qs}`, w.tA);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.fields)).toEqual([field]);
    });
  });

  describe('POST /knowledge-base/search', () => {
    beforeAll(async () => {
      for (const [question, answer] of [
        ['Do you ship abroad?', 'We ship to every country in the European Union.'],
        ['Can I pay by card?', 'Visa and Mastercard are accepted.'],
      ]) {
        const res = await createFaq(w.tA, { question, answer, is_active: true });
        if (!res.body.embedding) await waitForEmbedding(res.body.context_id, w.tA);
      }
      const b = await createFaq(w.tB, { question: 'How do I get a refund?', answer: 'Organization B refunds.', is_active: true });
      if (!b.body.embedding) await waitForEmbedding(b.body.context_id, w.tB);
    });

    it('ranks the lexically closest entries first, with scores', async () => {
      const res = await call('POST', '/knowledge-base/search', w.tA, { query: 'refund to my card', k: 3 });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(3);
      expect(res.body.data[0].context_id).toBe(w.refund.context_id);
      const scores = res.body.data.map((e: any) => e.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(scores[0]).toBeGreaterThan(0.2);
      expect(scores[0]).toBeLessThanOrEqual(1);
      const shipping = await call('POST', '/knowledge-base/search', w.tA, { query: 'shipping to countries abroad' });
      expect(shipping.body.data[0].question).toBe('Do you ship abroad?');
    });

    it("never returns another organization's entries", async () => {
      const a = await call('POST', '/knowledge-base/search', w.tA, { query: 'How do I get a refund?', k: 100 });
      expect(a.body.data.every((e: any) => e.org_id === w.orgA.id)).toBe(true);
      const b = await call('POST', '/knowledge-base/search', w.tB, { query: 'How do I get a refund?', k: 100 });
      expect(b.body.data.map((e: any) => e.answer)).toEqual(['Organization B refunds.']);
    });

    it('filters by type and is_active', async () => {
      const inactive = await call('POST', '/knowledge-base/search', w.tA, { query: 'policy logo menu photos', k: 100, is_active: false });
      expect(inactive.body.data.length).toBeGreaterThan(0);
      expect(inactive.body.data.every((e: any) => e.is_active === false)).toBe(true);
      // The self-learned entry approved above was embedded on that PATCH (it had no vector yet).
      const learned = await call('POST', '/knowledge-base/search', w.tA, { query: 'seeded question', type: 'self-learned' });
      expect(learned.body.data).toHaveLength(1);
      expect(learned.body.data[0]).toMatchObject({ type: 'self-learned', question: 'seeded question' });
      // Seeded rows without a vector (pending) are not found.
      const pending = await seed(w.orgA.id, 'self-learned', 'pending question zebra');
      const none = await call('POST', '/knowledge-base/search', w.tA, { query: 'pending question zebra', k: 100 });
      expect(none.body.data.map((e: any) => e.context_id)).not.toContain(pending);
    });

    it.each([
      [{ k: 3 }, 'body.query'],
      [{ query: '  ' }, 'body.query'],
      [{ query: 'x', k: 0 }, 'body.k'],
      [{ query: 'x', k: 101 }, 'body.k'],
      [{ query: 'x', type: 'video' }, 'body.type'],
    ])('refuses %j with 422', async (body, field) => {
      const res = await call('POST', '/knowledge-base/search', w.tA, body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.fields)).toContain(field);
    });
  });

  describe('DELETE /knowledge-base/faq/{context_id} (spec 4.3)', () => {
    it('deletes an FAQ permanently, answering its context_id', async () => {
      const res = await call('DELETE', `/knowledge-base/faq/${w.hours.context_id}`, w.tA);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ context_id: w.hours.context_id });
      expect((await call('GET', `/knowledge-base/faq/${w.hours.context_id}`, w.tA)).status).toBe(404);
      const rows = await stack.prisma.$queryRaw<
        unknown[]
      >`SELECT 1 FROM knowledge_base_entries WHERE context_id = ${w.hours.context_id}::uuid`;
      expect(rows).toHaveLength(0);
      const again = await call('DELETE', `/knowledge-base/faq/${w.hours.context_id}`, w.tA);
      expect(again.status).toBe(404);
      expectEnvelope(again.body, 'NOT_FOUND_ERROR', 404);
    });

    it('removes the files the FAQ stored', async () => {
      const bytes = Buffer.from('to be removed');
      const res = await createFaq(w.tA, {
        question: 'Temp?',
        answer: 'Temp.',
        attachment: { filename: 't.txt', base64: bytes.toString('base64') },
      });
      const id = /kb-attachments\/[^/]+\/([^/]+)\//.exec(res.body.attachments[0].link.url)![1];
      const file = join(storageDir, 'kb-attachments', w.orgA.id, id, 't.txt');
      expect(readFileSync(file)).toEqual(bytes);
      expect((await call('DELETE', `/knowledge-base/faq/${res.body.context_id}`, w.tA)).status).toBe(200);
      if (existsSync(file)) throw new Error(`still on disk: ${file}\n${kb.lines.slice(-20).join('\n')}`);
      expect(existsSync(join(storageDir, 'kb-attachments', w.orgA.id, id))).toBe(false); // nor its folder
    });

    it("answers 404 for an unknown id and for another organization's FAQ, which stays", async () => {
      const unknown = await call('DELETE', `/knowledge-base/faq/${crypto.randomUUID()}`, w.tA);
      expect(unknown.status).toBe(404);
      const foreign = await call('DELETE', `/knowledge-base/faq/${w.refund.context_id}`, w.tB);
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe(unknown.body.message.replace(/[0-9a-f-]{36}/, w.refund.context_id));
      expect((await call('GET', `/knowledge-base/faq/${w.refund.context_id}`, w.tA)).status).toBe(200);
    });

    it.each(['self-learned', 'document'] as const)('refuses a %s entry with 422, which stays', async (type) => {
      const id = await seed(w.orgA.id, type);
      const res = await call('DELETE', `/knowledge-base/faq/${id}`, w.tA);
      expect(res.status).toBe(422);
      expectEnvelope(res.body, 'VALIDATION_ERROR', 422);
      expect(res.body.fields.context_id).toEqual({ message: expect.stringContaining(`of type ${type}, not faq`), value: id });
      const rows = await stack.prisma.$queryRaw<unknown[]>`SELECT 1 FROM knowledge_base_entries WHERE context_id = ${id}::uuid`;
      expect(rows).toHaveLength(1);
    });

    it('refuses a context_id that is not a UUID with 422', async () => {
      const res = await call('DELETE', '/knowledge-base/faq/12345', w.tA);
      expect(res.status).toBe(422);
      expect(res.body.fields.context_id).toEqual({ message: 'context_id must be a UUID', value: 12345 });
    });
  });

  describe('the embedding worker', () => {
    it('runs each job in the trace of the request that enqueued it', async () => {
      const traceId = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
      const res = await call(
        'POST',
        '/knowledge-base/faq/create',
        w.tA,
        { question: 'Traced?', answer: 'Yes.' },
        { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      );
      expect(res.status).toBe(200);
      await waitForEmbedding(res.body.context_id, w.tA);
      const line = worker.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'embedding job done' && l.trace_id === traceId);
      expect(line).toMatchObject({ org_id: w.orgA.id, embedded: 1 });
    });
  });
});
