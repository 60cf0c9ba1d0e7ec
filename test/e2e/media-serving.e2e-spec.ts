import { createHmac } from 'node:crypto';
import { MediaTokenService } from '@mapi/media-feature/internals';
import { createOrg, createToken } from '@mapi/testing';
import { LEGACY_STORAGE_URL, SIGNING_KEYS, download, pattern, postJson, startMediaStack, type MediaStack } from './support/media-stack';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const hs256 = (header: object, payload: object, secret: string) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};

/** GET {media_base_url}/app/media/...: access rules, tokens, ranges and caching headers, against the media process. */
describe('GET /app/media/<bucket_path>', () => {
  let stack: MediaStack;
  const w: Record<string, any> = {};
  const fileUrl = (org: string, name = 'clip.mp4', jwt?: string) =>
    `${stack.mediaUrl}/app/media/message-media/${org}/${name}${jwt ? `?jwt=${jwt}` : ''}`;
  const claims = (org: string, extra: object = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return { org, acc: 'private', iss: 'mapi-media', aud: 'mapi-media-link', iat: now, exp: now + 600, ...extra };
  };

  beforeAll(async () => {
    stack = await startMediaStack();
    const p = stack.prisma;
    w.orgA = await createOrg(p);
    w.orgB = await createOrg(p);
    w.tA = (await createToken(p, w.orgA.id)).token;
    w.clip = pattern(10_000);
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgA.id}/clip.mp4` }, w.clip);
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgA.id}/empty.txt` }, '');
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgB.id}/clip.mp4` }, 'b');
    const signer = new MediaTokenService(SIGNING_KEYS);
    w.jwtA = (await signer.issue(w.orgA.id, 600)).token;
    w.jwtB = (await signer.issue(w.orgB.id, 600)).token;
    w.url = fileUrl(w.orgA.id, 'clip.mp4', w.jwtA);
  }, 120_000);

  afterAll(() => stack?.stop());

  describe('a private file with a valid token', () => {
    it('is served whole with the headers a CDN expects', async () => {
      const res = await download(w.url);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(w.clip)).toBe(true);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-length')).toBe('10000');
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(res.headers.get('last-modified')).toMatch(/GMT$/);
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control')!)![1]);
      expect(maxAge).toBeGreaterThan(500);
      expect(maxAge).toBeLessThanOrEqual(600);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it.each([
      ['bytes=0-99', 0, 99],
      ['bytes=9990-', 9990, 9999],
      ['bytes=-10', 9990, 9999],
      ['bytes=9000-20000', 9000, 9999],
    ])('serves Range %s as 206 with Content-Range', async (range, start, end) => {
      const res = await download(w.url, { Range: range });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/10000`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(res.bytes.equals(w.clip.subarray(start, end + 1))).toBe(true);
    });

    it('answers 416 with Content-Range for a range past the end', async () => {
      const res = await download(w.url, { Range: 'bytes=10000-' });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */10000');
      expect(res.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE_ERROR', status: 416 });
    });

    it('serves the whole file for several ranges, a bad Range, or an If-Range that no longer matches', async () => {
      const cases: Record<string, string>[] = [
        { Range: 'bytes=0-1,5-6' },
        { Range: 'items=0-1' },
        { Range: 'bytes=0-1', 'If-Range': '"stale"' },
      ];
      for (const headers of cases) {
        const res = await download(w.url, headers);
        expect(res.status).toBe(200);
        expect(res.bytes.length).toBe(10000);
      }
      const etag = (await download(w.url)).headers.get('etag')!;
      expect((await download(w.url, { Range: 'bytes=0-1', 'If-Range': etag })).status).toBe(206);
    });

    it('answers 304 to a matching If-None-Match or If-Modified-Since', async () => {
      const first = await download(w.url);
      const etag = first.headers.get('etag')!;
      const revalidated = await download(w.url, { 'If-None-Match': etag });
      expect(revalidated.status).toBe(304);
      expect(revalidated.bytes.length).toBe(0);
      expect(revalidated.headers.get('etag')).toBe(etag);
      expect((await download(w.url, { 'If-None-Match': '"other"' })).status).toBe(200);
      expect((await download(w.url, { 'If-Modified-Since': first.headers.get('last-modified')! })).status).toBe(304);
    });

    it('answers HEAD with the headers and no body', async () => {
      const res = await download(w.url, {}, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe('10000');
      expect(res.bytes.length).toBe(0);
    });

    it('serves an empty file', async () => {
      const res = await download(fileUrl(w.orgA.id, 'empty.txt', w.jwtA));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe('0');
    });

    it('accepts a token signed with an older key that is still listed (rotation)', async () => {
      const old = hs256({ alg: 'HS256', kid: 'k1', typ: 'JWT' }, claims(w.orgA.id), SIGNING_KEYS[1].secret);
      expect((await download(fileUrl(w.orgA.id, 'clip.mp4', old))).status).toBe(200);
    });
  });

  describe('refuses', () => {
    const refused = async (url: string, status: number, code: string) => {
      const res = await download(url);
      expect(res.status).toBe(status);
      expect(res.json()).toMatchObject({ code, status });
      expect(res.headers.get('cache-control')).toBe('no-store');
      return res;
    };

    it('a private file without a token (401), whether or not it exists', async () => {
      const res = await refused(fileUrl(w.orgA.id), 401, 'UNAUTHORIZED_ERROR');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await refused(fileUrl(w.orgA.id, 'nothing-here.jpg'), 401, 'UNAUTHORIZED_ERROR');
    });

    it("another organization's file with this organization's token (403)", async () => {
      await refused(fileUrl(w.orgB.id, 'clip.mp4', w.jwtA), 403, 'FORBIDDEN_ERROR');
      await refused(fileUrl(w.orgA.id, 'clip.mp4', w.jwtB), 403, 'FORBIDDEN_ERROR');
    });

    it('a tampered token (payload changed to another organization, signature kept)', async () => {
      const [h, , s] = w.jwtB.split('.');
      const forged = `${h}.${b64(claims(w.orgA.id))}.${s}`;
      await refused(fileUrl(w.orgA.id, 'clip.mp4', forged), 401, 'UNAUTHORIZED_ERROR');
      const flipped = w.jwtA.slice(0, -2) + (w.jwtA.at(-2) === 'A' ? 'B' : 'A') + w.jwtA.at(-1);
      await refused(fileUrl(w.orgA.id, 'clip.mp4', flipped), 401, 'UNAUTHORIZED_ERROR');
    });

    it('an expired token, with a message that says so', async () => {
      const expired = hs256(
        { alg: 'HS256', kid: 'k2' },
        claims(w.orgA.id, { iat: 1_700_000_000, exp: 1_700_000_060 }),
        SIGNING_KEYS[0].secret,
      );
      const res = await refused(fileUrl(w.orgA.id, 'clip.mp4', expired), 401, 'UNAUTHORIZED_ERROR');
      expect(res.json().message).toMatch(/expired/);
    });

    it.each([
      ['alg none', () => `${b64({ alg: 'none', kid: 'k2' })}.${b64(claims(w.orgA.id))}.`],
      [
        'a wrong key under a known kid',
        () => hs256({ alg: 'HS256', kid: 'k2' }, claims(w.orgA.id), 'an-attacker-secret-that-is-long-enough-000'),
      ],
      ['an unknown kid', () => hs256({ alg: 'HS256', kid: 'k9' }, claims(w.orgA.id), SIGNING_KEYS[0].secret)],
      ['no kid', () => hs256({ alg: 'HS256' }, claims(w.orgA.id), SIGNING_KEYS[0].secret)],
      ['no exp', () => hs256({ alg: 'HS256', kid: 'k2' }, { ...claims(w.orgA.id), exp: undefined }, SIGNING_KEYS[0].secret)],
      ['another audience', () => hs256({ alg: 'HS256', kid: 'k2' }, claims(w.orgA.id, { aud: 'other' }), SIGNING_KEYS[0].secret)],
      ['a public access claim', () => hs256({ alg: 'HS256', kid: 'k2' }, claims(w.orgA.id, { acc: 'public' }), SIGNING_KEYS[0].secret)],
      ['garbage', () => 'not.a.jwt'],
    ])('a token with %s (401)', async (_name, make) => {
      await refused(fileUrl(w.orgA.id, 'clip.mp4', make()), 401, 'UNAUTHORIZED_ERROR');
    });

    it('two jwt parameters (401)', async () => {
      await refused(`${w.url}&jwt=${w.jwtB}`, 401, 'UNAUTHORIZED_ERROR');
    });

    it('a missing file with a valid token (404), buckets the service does not own and traversal (404)', async () => {
      await refused(fileUrl(w.orgA.id, 'nothing-here.jpg', w.jwtA), 404, 'NOT_FOUND_ERROR');
      await refused(`${stack.mediaUrl}/app/media/avatars/${w.orgA.id}/clip.mp4?jwt=${w.jwtA}`, 404, 'NOT_FOUND_ERROR');
      await refused(
        `${stack.mediaUrl}/app/media/message-media/${w.orgA.id}/..%2F..%2F..%2Fetc%2Fpasswd?jwt=${w.jwtA}`,
        404,
        'NOT_FOUND_ERROR',
      );
      await refused(`${stack.mediaUrl}/elsewhere`, 404, 'NOT_FOUND_ERROR');
    });

    it("a public link of one organization's file does not make another's public", async () => {
      const res = await postJson(`${stack.apiUrl}/v1/media/migrate-url`, w.tA, {
        url: `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}%2Fclip.mp4`,
        access: 'public',
      });
      expect(res.status).toBe(200);
      expect((await download(res.body.url)).status).toBe(200);
      await refused(fileUrl(w.orgB.id), 401, 'UNAUTHORIZED_ERROR');
      // A bad token is refused even on a public file: a jwt, when present, must be valid.
      await refused(fileUrl(w.orgA.id, 'clip.mp4', 'not.a.jwt'), 401, 'UNAUTHORIZED_ERROR');
    });
  });

  it('has /health/live and /health/ready on its port', async () => {
    expect((await download(`${stack.mediaUrl}/health/live`)).json()).toEqual({ status: 'ok' });
    const ready = await download(`${stack.mediaUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.json().checks).sort()).toEqual(['nats', 'postgres', 'storage']);
  });
});
