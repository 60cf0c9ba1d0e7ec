import { MediaTokenService } from '@mapi/media-feature/internals';
import { createOrg, createToken, setMediaSettings } from '@mapi/testing';
import {
  LEGACY_PATH,
  LEGACY_STORAGE_URL,
  SIGNING_KEYS,
  download,
  pattern,
  postJson,
  startMediaStack,
  type MediaStack,
} from './support/media-stack';

/** POST /v1/media/migrate-url and /batch end to end: gateway → NATS → media, links downloaded from the media app. */
describe('POST /v1/media/migrate-url (+ /batch)', () => {
  let stack: MediaStack;
  const w: Record<string, any> = {};
  const one = (token: string | undefined, body: unknown) => postJson(`${stack.apiUrl}/v1/media/migrate-url`, token, body);
  const batch = (token: string | undefined, body: unknown) => postJson(`${stack.apiUrl}/v1/media/migrate-url/batch`, token, body);
  const jwtOf = (url: string) => new URL(url).searchParams.get('jwt');

  beforeAll(async () => {
    stack = await startMediaStack();
    const p = stack.prisma;
    w.orgA = await createOrg(p);
    w.orgB = await createOrg(p);
    w.orgPub = await createOrg(p);
    await setMediaSettings(p, w.orgPub.id, { access_default: 'public', link_expiry_seconds: 3600 });
    w.tA = (await createToken(p, w.orgA.id)).token;
    w.tB = (await createToken(p, w.orgB.id)).token;
    w.tPub = (await createToken(p, w.orgPub.id)).token;
    w.photo = pattern(1000);
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgA.id}/120363@g.us/true_1_ABC/photo one.jpg` }, w.photo);
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgA.id}/docs/naïve café ü.pdf` }, 'unicode');
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgA.id}/docs/100%2F real.txt` }, 'percent');
    await stack.storage.write({ bucket: 'kb-attachments', name: `${w.orgPub.id}/faq.pdf` }, 'faq');
    await stack.storage.write({ bucket: 'message-media', name: `${w.orgB.id}/secret.pdf` }, 'b-secret');
    w.legacyPhoto = `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}%2F120363%40g.us%2Ftrue_1_ABC%2Fphoto%20one.jpg`;
    w.photoPath = `/app/media/message-media/${w.orgA.id}/120363%40g.us/true_1_ABC/photo%20one.jpg`;
  }, 120_000);

  afterAll(() => stack?.stop());

  describe('single URL', () => {
    it('converts the legacy bucket form (one encoded object name) into a private link that downloads the file', async () => {
      const res = await one(w.tA, { url: w.legacyPhoto });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['access', 'expires_in_seconds', 'url']);
      expect(res.body).toMatchObject({ access: 'private', expires_in_seconds: 86400 });
      const url = new URL(res.body.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${stack.mediaUrl}${w.photoPath}`);
      expect([...url.searchParams.keys()]).toEqual(['jwt']);
      const file = await download(res.body.url);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(w.photo)).toBe(true);
      expect(file.headers.get('content-type')).toBe('image/jpeg');
    });

    it('converts the legacy relative path form (media.path) to the same link', async () => {
      const res = await one(w.tA, { url: `${LEGACY_PATH}/message-media/${w.orgA.id}/120363@g.us/true_1_ABC/photo%20one.jpg` });
      expect(res.status).toBe(200);
      expect(res.body.url.split('?')[0]).toBe(`${stack.mediaUrl}${w.photoPath}`);
      expect((await download(res.body.url)).bytes.equals(w.photo)).toBe(true);
    });

    it('encodes unicode and spaces per segment, whether the input had them raw or encoded', async () => {
      const expected = `${stack.mediaUrl}/app/media/message-media/${w.orgA.id}/docs/na%C3%AFve%20caf%C3%A9%20%C3%BC.pdf`;
      for (const url of [
        `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}/docs/naïve café ü.pdf`,
        `${LEGACY_STORAGE_URL}/message-media/${encodeURIComponent(`${w.orgA.id}/docs/naïve café ü.pdf`)}`,
      ]) {
        const res = await one(w.tA, { url });
        expect(res.status).toBe(200);
        expect(res.body.url.split('?')[0]).toBe(expected);
        expect((await download(res.body.url)).bytes.toString()).toBe('unicode');
      }
    });

    it('keeps a literal "%2F" in a file name (double-encoded in the legacy link) as part of the name', async () => {
      const legacy = `${LEGACY_STORAGE_URL}/message-media/${encodeURIComponent(`${w.orgA.id}/docs/100%2F real.txt`)}`;
      const res = await one(w.tA, { url: legacy });
      expect(res.status).toBe(200);
      expect(res.body.url.split('?')[0]).toBe(`${stack.mediaUrl}/app/media/message-media/${w.orgA.id}/docs/100%252F%20real.txt`);
      expect((await download(res.body.url)).bytes.toString()).toBe('percent');
      // Refreshing the new link names the same file (the encoding round-trips).
      const again = await one(w.tA, { url: res.body.url });
      expect(again.body.url.split('?')[0]).toBe(res.body.url.split('?')[0]);
    });

    it('refreshes an expired service link into one with a fresh token that works', async () => {
      const old = new MediaTokenService(SIGNING_KEYS, () => new Date(Date.now() - 3 * 86_400_000));
      const expiredLink = `${stack.mediaUrl}${w.photoPath}?jwt=${(await old.issue(w.orgA.id, 60)).token}`;
      expect((await download(expiredLink)).status).toBe(401);
      const res = await one(w.tA, { url: expiredLink, expires_in_seconds: 600 });
      expect(res.status).toBe(200);
      expect(res.body.expires_in_seconds).toBe(600);
      expect(jwtOf(res.body.url)).not.toBe(jwtOf(expiredLink));
      expect((await download(res.body.url)).status).toBe(200);
    });

    it('gives a bare public link with access public, which then downloads without a token', async () => {
      const priv = `${stack.mediaUrl}/app/media/message-media/${w.orgA.id}/docs/naïve café ü.pdf`;
      expect((await download(priv)).status).toBe(401);
      const res = await one(w.tA, { url: `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}/docs/naïve café ü.pdf`, access: 'public' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        url: `${stack.mediaUrl}/app/media/message-media/${w.orgA.id}/docs/na%C3%AFve%20caf%C3%A9%20%C3%BC.pdf`,
        access: 'public',
      });
      const file = await download(res.body.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    });

    it('clamps expires_in_seconds to 60..604800', async () => {
      expect((await one(w.tA, { url: w.legacyPhoto, expires_in_seconds: 5 })).body.expires_in_seconds).toBe(60);
      expect((await one(w.tA, { url: w.legacyPhoto, access: 'private', expires_in_seconds: 10_000_000 })).body.expires_in_seconds).toBe(
        604800,
      );
    });

    it("follows the organization's settings when access / expiry are omitted", async () => {
      const url = `${LEGACY_STORAGE_URL}/kb-attachments/${w.orgPub.id}%2Ffaq.pdf`;
      const pub = await one(w.tPub, { url });
      expect(pub.body).toEqual({ url: `${stack.mediaUrl}/app/media/kb-attachments/${w.orgPub.id}/faq.pdf`, access: 'public' });
      const priv = await one(w.tPub, { url, access: 'private' });
      expect(priv.body).toMatchObject({ access: 'private', expires_in_seconds: 3600 });
      const withExpiry = await one(w.tPub, { url, expires_in_seconds: 120 });
      expect(withExpiry.status).toBe(422);
      expect(withExpiry.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: { 'body.expires_in_seconds': { message: 'expires_in_seconds is only valid with private access' } },
      });
    });

    it('refuses a file of another organization with 403 { error }, without revealing anything else', async () => {
      const res = await one(w.tB, { url: w.legacyPhoto });
      expect(res).toEqual({ status: 403, body: { error: 'This URL belongs to a different organization' } });
      const back = await one(w.tA, { url: `${LEGACY_STORAGE_URL}/message-media/${w.orgB.id}%2Fsecret.pdf` });
      expect(back.status).toBe(403);
    });

    it.each([
      ['a bucket the service does not own', () => `${LEGACY_STORAGE_URL}/avatars/${w.orgA.id}%2Fx.jpg`, /not a media bucket/],
      ['text that is not a URL', () => 'definitely not a url', /^Not a URL$/],
      [
        'a URL of another host',
        () => `https://evil.example.com/storage/v1/object/public/message-media/${w.orgA.id}%2Fx.jpg`,
        /Not a legacy storage URL/,
      ],
      ['a path with no file', () => `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}`, /does not name a file/],
      ['a traversal attempt', () => `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}%2F..%2F..%2Fetc%2Fpasswd`, /not allowed/],
      ['an empty string', () => '', /^Not a URL$/],
    ])('answers 422 { error } for %s', async (_name, url, message) => {
      const res = await one(w.tA, { url: url() });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatch(message);
    });

    it.each([
      ['a missing url', {}, 'body.url'],
      ['a url that is not a string', { url: 42 }, 'body.url'],
      ['an unknown access value', { url: 'x', access: 'shared' }, 'body.access'],
      ['an expiry with public access', { url: 'x', access: 'public', expires_in_seconds: 100 }, 'body.expires_in_seconds'],
      ['an expiry that is not a number', { url: 'x', expires_in_seconds: '100' }, 'body.expires_in_seconds'],
    ])('answers 422 VALIDATION_ERROR for %s', async (_name, body, field) => {
      const res = await one(w.tA, body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
      expect(Object.keys(res.body.fields)).toEqual([field]);
    });

    it('needs a valid bearer token', async () => {
      expect((await one(undefined, { url: w.legacyPhoto })).status).toBe(401);
      expect((await one('mapi_not-a-token', { url: w.legacyPhoto })).body.code).toBe('UNAUTHORIZED_ERROR');
    });
  });

  describe('batch', () => {
    it('answers each URL in order, independently, with one token shared by every private link', async () => {
      const urls: unknown[] = [];
      for (let i = 0; i < 1000; i++) {
        if (i % 100 === 1) urls.push(`${LEGACY_STORAGE_URL}/message-media/${w.orgB.id}%2Fsecret.pdf`);
        else if (i % 100 === 2) urls.push(`${LEGACY_STORAGE_URL}/avatars/${w.orgA.id}%2Fx.jpg`);
        else if (i % 100 === 3) urls.push(i % 200 === 3 ? 'nope' : null);
        else urls.push(`${LEGACY_PATH}/message-media/${w.orgA.id}/chat/m${i}/file ${i}.jpg`);
      }
      const res = await batch(w.tA, { urls, expires_in_seconds: 900 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ migrated_count: 970, failed_count: 30, access: 'private', expires_in_seconds: 900 });
      expect(res.body.results).toHaveLength(1000);
      res.body.results.forEach((r: any, i: number) => expect(r.index).toBe(i));
      expect(res.body.results[1]).toEqual({ index: 1, success: false, error: 'This URL belongs to a different organization' });
      expect(res.body.results[2]).toMatchObject({ success: false, error: expect.stringMatching(/not a media bucket/) });
      expect(res.body.results[3]).toEqual({ index: 3, success: false, error: 'Not a URL' });
      expect(res.body.results[103]).toEqual({ index: 103, success: false, error: 'Not a URL' });
      expect(res.body.results[4].url.split('?')[0]).toBe(`${stack.mediaUrl}/app/media/message-media/${w.orgA.id}/chat/m4/file%204.jpg`);
      const tokens = new Set(res.body.results.filter((r: any) => r.success).map((r: any) => jwtOf(r.url)));
      expect(tokens.size).toBe(1);
    });

    it("shares the batch token across files: it opens another of the organization's files", async () => {
      const res = await batch(w.tA, {
        urls: [w.legacyPhoto, `${LEGACY_STORAGE_URL}/message-media/${w.orgA.id}%2Fdocs%2F100%252F%20real.txt`],
      });
      expect(res.body.migrated_count).toBe(2);
      const [a, b] = res.body.results.map((r: any) => r.url);
      expect(jwtOf(a)).toBe(jwtOf(b));
      expect((await download(a)).bytes.equals(w.photo)).toBe(true);
      expect((await download(b)).bytes.toString()).toBe('percent');
    });

    it('makes public links for every URL of a public batch', async () => {
      const res = await batch(w.tPub, { urls: [`${LEGACY_STORAGE_URL}/kb-attachments/${w.orgPub.id}%2Ffaq.pdf`, 'x'] });
      expect(res.body).toMatchObject({ access: 'public', migrated_count: 1, failed_count: 1 });
      expect(res.body).not.toHaveProperty('expires_in_seconds');
      expect(res.body.results[0].url).toBe(`${stack.mediaUrl}/app/media/kb-attachments/${w.orgPub.id}/faq.pdf`);
      expect((await download(res.body.results[0].url)).bytes.toString()).toBe('faq');
    });

    it('counts a batch where every URL fails as a 200 with no successes', async () => {
      const res = await batch(w.tB, { urls: [w.legacyPhoto] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ migrated_count: 0, failed_count: 1 });
    });

    it.each([
      ['no urls', { urls: [] }, 'body.urls'],
      ['more than 1000 urls', { urls: Array.from({ length: 1001 }, () => 'x') }, 'body.urls'],
      ['urls missing', {}, 'body.urls'],
      ['an expiry with public access', { urls: ['x'], access: 'public', expires_in_seconds: 60 }, 'body.expires_in_seconds'],
    ])('answers 422 VALIDATION_ERROR for %s', async (_name, body, field) => {
      const res = await batch(w.tA, body);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.body.fields)).toEqual([field]);
    });
  });
});
