import { mkdtemp, readdir, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { InvalidObjectKeyError } from './object-key';
import { LocalFsStorage } from './local-fs-storage';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const read = async (stream: Readable | null) => {
  const chunks: Buffer[] = [];
  for await (const c of stream!) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
};

describe('LocalFsStorage', () => {
  let root: string;
  let storage: LocalFsStorage;
  const key = (name: string) => ({ bucket: 'message-media', name: `${ORG}/${name}` });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'mapi-storage-'));
    storage = new LocalFsStorage(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes under <root>/<bucket>/<org_id>/..., then stats and reads whole or by range', async () => {
    const info = await storage.write(key('chat/naïve café.txt'), 'hello world');
    expect(info).toMatchObject({ size: 11, etag: expect.stringMatching(/^"b-[0-9a-f]+"$/) });
    expect(await readdir(join(root, 'message-media', ORG, 'chat'))).toEqual(['naïve café.txt']);
    expect(await storage.stat(key('chat/naïve café.txt'))).toEqual(info);
    expect(await read(await storage.read(key('chat/naïve café.txt')))).toBe('hello world');
    expect(await read(await storage.read(key('chat/naïve café.txt'), { start: 6, end: 10 }))).toBe('world');
  });

  it('answers null for missing objects and for folders', async () => {
    await storage.write(key('dir/a.txt'), 'a');
    expect(await storage.stat(key('missing.txt'))).toBeNull();
    expect(await storage.stat(key('dir'))).toBeNull();
    expect(await storage.read(key('missing.txt'))).toBeNull();
    expect(await storage.stat(key('dir/a.txt/b'))).toBeNull();
  });

  it('replaces a file atomically and changes its ETag, leaving no temporary files', async () => {
    const first = await storage.write(key('a.txt'), 'one');
    const second = await storage.write(key('a.txt'), 'three');
    expect(second.etag).not.toBe(first.etag);
    expect(await readdir(join(root, 'message-media', ORG))).toEqual(['a.txt']);
  });

  it('deletes, and deleting again is fine', async () => {
    await storage.write(key('a.txt'), 'x');
    await storage.delete(key('a.txt'));
    await storage.delete(key('a.txt'));
    expect(await storage.stat(key('a.txt'))).toBeNull();
  });

  it('removes the folders a delete leaves empty, up to the organization folder, and no others', async () => {
    await storage.write(key('entry-1/doc/a.txt'), 'x');
    await storage.write(key('entry-2/b.txt'), 'y');
    await storage.delete(key('entry-1/doc/a.txt'));
    expect((await readdir(join(root, 'message-media', ORG))).sort()).toEqual(['entry-2']);
    await storage.delete(key('entry-2/b.txt'));
    expect(await readdir(join(root, 'message-media', ORG))).toEqual([]); // the organization's folder stays
    await storage.write(key('entry-2/b.txt'), 'again'); // and its folder is made again
    expect(await storage.stat(key('entry-2/b.txt'))).toMatchObject({ size: 5 });
  });

  it('refuses keys that could leave the root', async () => {
    await expect(storage.write({ bucket: 'message-media', name: `${ORG}/../../escape.txt` }, 'x')).rejects.toThrow(InvalidObjectKeyError);
    await expect(storage.stat({ bucket: '..', name: `${ORG}/a` })).rejects.toThrow(InvalidObjectKeyError);
    expect(() => storage.pathOf({ bucket: 'message-media', name: `${ORG}/a/../../b` })).toThrow(InvalidObjectKeyError);
  });

  it('reports readiness, and creates the root when missing', async () => {
    const fresh = new LocalFsStorage(join(root, 'new', 'root'));
    await expect(fresh.check()).resolves.toBeUndefined();
  });

  it('treats a symlinked folder inside the root as part of the store (operators may mount buckets)', async () => {
    const elsewhere = join(root, 'elsewhere');
    await mkdir(join(elsewhere, ORG), { recursive: true });
    await writeFile(join(elsewhere, ORG, 'x.txt'), 'mounted');
    await symlink(elsewhere, join(root, 'kb-attachments'));
    expect(await read(await storage.read({ bucket: 'kb-attachments', name: `${ORG}/x.txt` }))).toBe('mounted');
  });
});
