import { createHash, randomBytes } from 'node:crypto';
import { createOrg, createToken } from '@mapi/testing';
import { LEGACY_STORAGE_URL, download, postJson, startMediaStack, type MediaStack } from './support/media-stack';

/**
 * The media app with MEDIA_STORAGE_BACKEND=s3 against an S3-compatible server process (s3rver):
 * migrate through the gateway, then serve the files (whole, ranges, conditional, HEAD, missing) with
 * everything read from S3 over HTTP. Readiness follows the S3 server.
 */
describe('media with the S3 backend (s3rver process)', () => {
  let stack: MediaStack;
  const w: Record<string, any> = {};
  const fileUrl = (name: string, jwt?: string) =>
    `${stack.mediaUrl}/app/media/message-media/${w.org.id}/${name}${jwt ? `?jwt=${jwt}` : ''}`;

  beforeAll(async () => {
    stack = await startMediaStack({ backend: 's3' });
    w.org = await createOrg(stack.prisma);
    w.token = (await createToken(stack.prisma, w.org.id)).token;
    w.video = randomBytes(3 * 1024 * 1024 + 17);
    await stack.storage.write({ bucket: 'message-media', name: `${w.org.id}/chat/clip ü.mp4` }, w.video, { contentType: 'video/mp4' });
    // Stored without a type: the served type comes from the extension.
    await stack.storage.write({ bucket: 'message-media', name: `${w.org.id}/chat/note.pdf` }, 'pdf bytes');
  }, 120_000);

  afterAll(() => stack?.stop());

  it('is ready with the S3 backend', async () => {
    expect((await fetch(`${stack.mediaUrl}/health/ready`)).status).toBe(200);
  });

  it('migrates a batch through the gateway and serves each private file from S3 with the shared token', async () => {
    const urls = [
      `${LEGACY_STORAGE_URL}/message-media/${w.org.id}%2Fchat%2Fclip%20%C3%BC.mp4`,
      `/storage/v1/object/public/message-media/${w.org.id}/chat/note.pdf`,
    ];
    const res = await postJson(`${stack.apiUrl}/v1/media/migrate-url/batch`, w.token, { urls });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ migrated_count: 2, failed_count: 0, access: 'private' });
    const [clip, note] = res.body.results.map((r: { url: string }) => r.url);
    expect(clip).toMatch(/\/app\/media\/message-media\/[^/]+\/chat\/clip%20%C3%BC\.mp4\?jwt=/);
    w.jwt = new URL(clip).searchParams.get('jwt');
    expect(new URL(note).searchParams.get('jwt')).toBe(w.jwt);

    const whole = await download(clip);
    expect(whole.status).toBe(200);
    expect(createHash('sha256').update(whole.bytes).digest('hex')).toBe(createHash('sha256').update(w.video).digest('hex'));
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-length')).toBe(String(w.video.length));
    expect(whole.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/); // S3's ETag (MD5 of a single-part object)
    expect(whole.headers.get('last-modified')).toMatch(/GMT$/);
    w.etag = whole.headers.get('etag');

    const pdf = await download(note);
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.toString()).toBe('pdf bytes');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('serves ranges from S3 (206, suffix range, 416 past the end)', async () => {
    const url = fileUrl('chat/clip%20%C3%BC.mp4', w.jwt);
    const size = w.video.length;
    const mid = await download(url, { Range: 'bytes=1048576-1114111' });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe(`bytes 1048576-1114111/${size}`);
    expect(mid.bytes.equals(w.video.subarray(1048576, 1114112))).toBe(true);
    const suffix = await download(url, { Range: 'bytes=-100' });
    expect(suffix.status).toBe(206);
    expect(suffix.bytes.equals(w.video.subarray(size - 100))).toBe(true);
    const past = await download(url, { Range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it("answers 304 to S3's ETag, HEAD without a body, and 404 for a file S3 does not have", async () => {
    const url = fileUrl('chat/clip%20%C3%BC.mp4', w.jwt);
    expect((await download(url, { 'If-None-Match': w.etag })).status).toBe(304);
    const head = await download(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(w.video.length));
    expect(head.bytes.length).toBe(0);
    const missing = await download(fileUrl('chat/missing.jpg', w.jwt));
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND_ERROR' });
  });

  it('serves a file made public through the gateway without a token', async () => {
    await stack.storage.write({ bucket: 'message-media', name: `${w.org.id}/public/logo.png` }, 'png');
    const res = await postJson(`${stack.apiUrl}/v1/media/migrate-url`, w.token, {
      url: `${LEGACY_STORAGE_URL}/message-media/${w.org.id}%2Fpublic%2Flogo.png`,
      access: 'public',
    });
    expect(res.status).toBe(200);
    const file = await download(res.body.url);
    expect(file.status).toBe(200);
    expect(file.bytes.toString()).toBe('png');
    expect(file.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  });

  it('is not ready once the S3 server is gone, and a file request then fails with the envelope, not a hang', async () => {
    await stack.s3!.stop();
    const ready = await fetch(`${stack.mediaUrl}/health/ready`);
    expect(ready.status).toBe(503);
    const res = await download(fileUrl('chat/note.pdf', w.jwt));
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.json()).toMatchObject({ status: res.status });
  });
});
