import type { Readable } from 'node:stream';
import type { ObjectKey } from './object-key';

/** What a backend knows about a stored object without reading it. */
export interface ObjectInfo {
  size: number;
  /** Quoted strong validator, as sent in the ETag header (`"..."`). */
  etag: string;
  lastModified: Date;
  /** The type recorded at write time, when the backend records one (S3 does, the local backend does not). */
  contentType?: string;
}

/** Inclusive byte positions, as in an HTTP Range (`bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface WriteOptions {
  contentType?: string;
}

/** One object of a listing. */
export interface ListedObject {
  key: ObjectKey;
  size: number;
  lastModified: Date;
}

export interface ListOptions {
  /** Only names that start with `<org_id>/<prefix>` (a plain string prefix, as in S3, not whole segments). */
  prefix?: string;
  /** Most objects in one page: 1..1000, default 1000. */
  limit?: number;
  /** The `next` of the previous page: objects after it. */
  after?: string;
}

/** A page of a listing, in S3 order (UTF-8 bytes of the name); `next` when there are more. */
export interface ObjectPage {
  objects: ListedObject[];
  next?: string;
}

/**
 * One interface over every storage backend (local filesystem by default, S3-compatible). Keys are
 * validated by the backend; reads of a missing object answer null rather than throwing.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  stat(key: ObjectKey): Promise<ObjectInfo | null>;
  /** The object's bytes (only `range` when given); null when it does not exist. */
  read(key: ObjectKey, range?: ByteRange): Promise<Readable | null>;
  write(key: ObjectKey, data: Buffer | Uint8Array | string, options?: WriteOptions): Promise<ObjectInfo>;
  /** One organization's objects in a bucket (names `<org_id>/...`), optionally under a name prefix. */
  list(bucket: string, orgId: string, options?: ListOptions): Promise<ObjectPage>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: ObjectKey): Promise<void>;
  /** Readiness: throws when the backend cannot be reached or used. */
  check(): Promise<void>;
}
