import { createReadStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, rmdir, stat, writeFile, constants } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { assertListScope, assertObjectKey, isValidKey, listLimit, segmentProblem, type ObjectKey } from './object-key';
import type { ByteRange, ListOptions, ListedObject, ObjectInfo, ObjectPage, ObjectStorage, WriteOptions } from './object-storage';

/** The temporary files of write() (`.<16 hex>.tmp`), never objects. */
const TEMP_FILE = /^\.[0-9a-f]{16}\.tmp$/;
/** S3's listing order: the UTF-8 bytes of the name. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Objects as files under a root folder: `<root>/<bucket>/<org_id>/...`. The default backend. Keys are
 * validated (no `..`, no empty segments) and the resolved path is checked to stay under the root, so
 * a key can never name a file elsewhere. Writes go to a temporary file renamed into place, so a
 * reader never sees half a file. No content type is recorded: readers guess it from the extension.
 */
export class LocalFsStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  pathOf(key: ObjectKey): string {
    assertObjectKey(key);
    const path = join(this.root, key.bucket, ...key.name.split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error('object path escapes the storage root');
    return path;
  }

  async stat(key: ObjectKey): Promise<ObjectInfo | null> {
    try {
      const st = await stat(this.pathOf(key));
      if (!st.isFile()) return null;
      // nginx-style validator: size and modification time, both in hex.
      return { size: st.size, etag: `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, lastModified: st.mtime };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: ObjectKey, range?: ByteRange): Promise<Readable | null> {
    const path = this.pathOf(key);
    const stream = createReadStream(path, range ? { start: range.start, end: range.end } : {});
    // Surface "missing" as null instead of an error event after the caller has committed to a 200.
    return new Promise((resolvePromise, reject) => {
      stream.once('open', () => resolvePromise(stream));
      stream.once('error', (error) => (isMissing(error) ? resolvePromise(null) : reject(error)));
    });
  }

  async write(key: ObjectKey, data: Buffer | Uint8Array | string, _options?: WriteOptions): Promise<ObjectInfo> {
    const path = this.pathOf(key);
    // A delete may prune the (empty) folder between mkdir and the write: then make it again, once.
    for (let attempt = 0; ; attempt++) {
      await mkdir(dirname(path), { recursive: true });
      const temp = join(dirname(path), `.${randomBytes(8).toString('hex')}.tmp`);
      try {
        await writeFile(temp, data);
        await rename(temp, path);
        break;
      } catch (error) {
        await rm(temp, { force: true });
        if (!isMissing(error) || attempt > 0) throw error;
      }
    }
    return (await this.stat(key))!;
  }

  /**
   * Walks `<root>/<bucket>/<org_id>/` (from the deepest folder the prefix names) and sorts like S3.
   * Reads the whole subtree for every page: fine for the development backend, not for millions of files.
   */
  async list(bucket: string, orgId: string, options: ListOptions = {}): Promise<ObjectPage> {
    const owner = assertListScope(bucket, orgId);
    const limit = listLimit(options.limit);
    const wanted = `${owner}${options.prefix ?? ''}`;
    // Start at the folder of the prefix's complete segments, when they could name one.
    const folders = wanted.split('/').slice(0, -1);
    if (folders.some((f) => segmentProblem(f))) return { objects: [] };
    const names: string[] = [];
    const walk = async (relative: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(join(this.root, bucket, ...relative.split('/')), { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      for (const entry of entries) {
        const name = `${relative}/${entry.name}`;
        if (entry.isDirectory()) await walk(name);
        else if (entry.isFile() && !TEMP_FILE.test(entry.name) && name.startsWith(wanted)) names.push(name);
      }
    };
    await walk(folders.join('/'));
    names.sort(byteOrder);
    const after = options.after;
    const start = after === undefined ? 0 : names.findIndex((n) => byteOrder(n, after) > 0);
    const page = start < 0 ? [] : names.slice(start, start + limit);
    const objects: ListedObject[] = [];
    for (const name of page) {
      const info = isValidKey({ bucket, name }) ? await this.stat({ bucket, name }) : null;
      if (info) objects.push({ key: { bucket, name }, size: info.size, lastModified: info.lastModified });
    }
    const more = start >= 0 && start + limit < names.length;
    return { objects, next: more ? page[page.length - 1] : undefined };
  }

  /**
   * Deletes the file, then the folders it leaves empty below `<bucket>/<first segment>` (an object's
   * own folder, e.g. a knowledge-base entry's `<org>/<id>/`), so deleted objects leave no folders
   * for `list` to walk. The bucket's first level (an organization's folder) is kept.
   */
  async delete(key: ObjectKey): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    const keep = join(this.root, key.bucket, key.name.split('/')[0]);
    for (let dir = dirname(path); dir.startsWith(keep + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        break; // not empty (or already gone): the folders above are not empty either
      }
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.R_OK | constants.W_OK);
  }
}
