import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddressPolicy } from '@mapi/platform';
import { LocalFsStorage } from '@mapi/storage';
import type { ImportJob } from '../run/import-job';
import { Report } from '../run/report';
import { SourceClient } from '../source/source-client';
import { MediaCopier, keyOfLink } from './media-copier';

const SOURCE_ORG = '11111111-1111-4111-8111-111111111111';
const OUR_ORG = '22222222-2222-4222-8222-222222222222';
const OURS = 'https://media.ours.example';

/**
 * A source on loopback: its API answers the batch of spec 4.9 with a tokenized link per file (or
 * refuses the files named in `refuse`), and its media app serves `files` only with that token.
 */
async function source(files: Record<string, string>, options: { refuse?: string[]; noBatch?: boolean } = {}) {
  const seen: { method: string; url: string; auth?: string }[] = [];
  const server = http.createServer(async (req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization });
    const url = new URL(req.url ?? '', 'http://x');
    if (req.method === 'POST' && url.pathname === '/v1/media/migrate-url/batch') {
      if (options.noBatch) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"NOT_FOUND_ERROR"}');
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const { urls } = JSON.parse(Buffer.concat(chunks).toString()) as { urls: string[] };
      const results = urls.map((u, index) =>
        options.refuse?.some((r) => u.includes(r))
          ? { index, success: false, error: 'File not of this organization' }
          : { index, success: true, url: `${u}?jwt=fresh` },
      );
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    }
    const name = decodeURIComponent(url.pathname.replace('/app/media/message-media/', ''));
    if (url.pathname.startsWith('/app/media/') && name in files && (options.noBatch || url.searchParams.get('jwt') === 'fresh')) {
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(files[name]);
    }
    res.writeHead(url.pathname.startsWith('/app/media/') && name in files ? 401 : 404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const link = (name: string) => `${origin}/app/media/message-media/${encodeURI(name)}`;
  return { origin, link, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The part of a job the copier uses: its organization, options, report and failure record. */
function jobOf(dryRun = false) {
  const failures: { resource: string; source_id: string; reason: string }[] = [];
  const job = {
    orgId: OUR_ORG,
    dryRun,
    run: { import_id: 'run-1' },
    options: { concurrency: 2 },
    report: new Report(),
    parts: { failures: { record: async (_org: string, _run: string, f: typeof failures) => void failures.push(...f) } },
  };
  return { job: job as unknown as ImportJob, report: job.report, failures };
}

const message = (id: string, path: string | null) => ({
  message_id: id,
  media: path === null ? null : { path, mimetype: 'image/jpeg', size: 3 },
});

describe('MediaCopier', () => {
  const root = mkdtempSync(join(tmpdir(), 'import-media-'));
  const storage = new LocalFsStorage(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const copier = (base: string, maxBytes = 1_000) =>
    new MediaCopier(
      new SourceClient({
        baseUrl: `${base}/v1`,
        token: 'tok',
        policy: new AddressPolicy(['127.0.0.1/32']),
        rate: 1000,
        concurrency: 4,
        attempts: 3,
        timeoutMs: 2000,
      }),
      { storage, mediaBaseUrl: OURS, maxBytes },
    );

  it('copies each file under our organization through a fresh link, and links our copy', async () => {
    const files = { [`${SOURCE_ORG}/chat@c.us/M1/a photo.jpg`]: 'one', [`${SOURCE_ORG}/chat@c.us/M2/b.jpg`]: 'two' };
    const s = await source(files);
    try {
      const page: { message_id: string; media?: { path: string } | null }[] = [
        message('M1', s.link(`${SOURCE_ORG}/chat@c.us/M1/a photo.jpg`)),
        message('M2', `${s.link(`${SOURCE_ORG}/chat@c.us/M2/b.jpg`)}?jwt=stale`),
        message('M3', null),
        { message_id: 'M4' },
        message('M5', 'media/some-org/M5.jpeg'),
      ];
      const { job, report } = jobOf();
      await copier(s.origin).copy(job, page);
      expect(report.of('media')).toEqual({ read: 2, created: 2, updated: 0, skipped: 0, failed: 0 });
      expect(page[0].media?.path).toBe(`${OURS}/app/media/message-media/${OUR_ORG}/chat%40c.us/M1/a%20photo.jpg`);
      expect(page[1].media).toEqual({
        path: `${OURS}/app/media/message-media/${OUR_ORG}/chat%40c.us/M2/b.jpg`,
        mimetype: 'image/jpeg',
        size: 3,
      });
      const stored = await storage.read({ bucket: 'message-media', name: `${OUR_ORG}/chat@c.us/M1/a photo.jpg` });
      expect(stored && (await streamText(stored))).toBe('one');
      // One batch call for the page; each file read by its fresh link (the stale token dropped).
      expect(s.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(s.seen.filter((r) => r.url.startsWith('/app/media/')).map((r) => r.url.endsWith('?jwt=fresh'))).toEqual([true, true]);

      // Again (a rerun, a resumed page): nothing read from the source, the links ours all the same.
      const again = [message('M1', s.link(`${SOURCE_ORG}/chat@c.us/M1/a photo.jpg`))];
      const second = jobOf();
      const before = s.seen.length;
      await copier(s.origin).copy(second.job, again);
      expect(second.report.of('media')).toMatchObject({ read: 1, created: 0, skipped: 1 });
      expect(again[0].media?.path).toBe(page[0].media?.path);
      expect(s.seen.length).toBe(before);
    } finally {
      await s.close();
    }
  });

  it('a file refused, gone or too large fails on its own: reported, the source link kept, the rest copied', async () => {
    const files = { [`${SOURCE_ORG}/c/ok.jpg`]: 'fine', [`${SOURCE_ORG}/c/big.jpg`]: 'x'.repeat(50) };
    const s = await source(files, { refuse: ['refused.jpg'] });
    try {
      const page = ['ok.jpg', 'refused.jpg', 'gone.jpg', 'big.jpg'].map((f, i) => message(`M${i}`, s.link(`${SOURCE_ORG}/c/${f}`)));
      const links = page.map((m) => m.media?.path);
      const { job, report, failures } = jobOf();
      await copier(s.origin, 10).copy(job, page);
      expect(report.of('media')).toMatchObject({ read: 4, created: 1, failed: 3 });
      expect(page[0].media?.path.startsWith(OURS)).toBe(true);
      expect(page.slice(1).map((m) => m.media?.path)).toEqual(links.slice(1));
      expect(failures.map((f) => [f.resource, f.source_id])).toEqual([
        ['media', 'M1'],
        ['media', 'M2'],
        ['media', 'M3'],
      ]);
      expect(failures[0].reason).toMatch(/would not hand out a link.*File not of this organization/);
      expect(failures[1].reason).toMatch(/answered 404/);
      expect(failures[2].reason).toMatch(/larger than 10 bytes/);
      for (const f of failures) expect(f.reason).not.toMatch(/jwt|fresh/); // a link's token never lands in a report
    } finally {
      await s.close();
    }
  });

  it('a source without the batch route: the stored link is read as it is; an outside link is kept', async () => {
    const s = await source({ [`${SOURCE_ORG}/c/public.jpg`]: 'pub' }, { noBatch: true });
    try {
      const page = [message('P1', s.link(`${SOURCE_ORG}/c/public.jpg`)), message('X1', 'https://cdn.elsewhere.example/pic.jpg')];
      const { job, report } = jobOf();
      await copier(s.origin).copy(job, page);
      expect(report.of('media')).toMatchObject({ read: 2, created: 1, skipped: 1, failed: 0 });
      expect(page[0].media?.path).toBe(`${OURS}/app/media/message-media/${OUR_ORG}/c/public.jpg`);
      expect(page[1].media?.path).toBe('https://cdn.elsewhere.example/pic.jpg');
    } finally {
      await s.close();
    }
  });

  it('a dry run counts what it would copy and neither asks the source nor writes', async () => {
    const s = await source({ [`${SOURCE_ORG}/c/dry.jpg`]: 'dry' });
    try {
      const page = [message('D1', s.link(`${SOURCE_ORG}/c/dry.jpg`))];
      const { job, report } = jobOf(true);
      await copier(s.origin).copy(job, page);
      expect(report.of('media')).toMatchObject({ read: 1, created: 1 });
      expect(s.seen).toEqual([]);
      expect(await storage.stat({ bucket: 'message-media', name: `${OUR_ORG}/c/dry.jpg` })).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('keyOfLink reads media-app links only, decoded', () => {
    expect(keyOfLink('http://h/app/media/message-media/o/a%20b/c.jpg?jwt=x')).toEqual({ bucket: 'message-media', name: 'o/a b/c.jpg' });
    expect(keyOfLink('http://h/files/c.jpg')).toBeNull();
    expect(keyOfLink('http://h/app/media/message-media/o/../../etc/passwd')).toBeNull();
    expect(keyOfLink('not a url')).toBeNull();
  });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}
