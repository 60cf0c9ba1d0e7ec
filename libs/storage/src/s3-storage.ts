import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { DEFAULT_CONTENT_TYPE, contentTypeFor } from './content-type';
import { assertListScope, assertObjectKey, formatObjectKey, isValidKey, listLimit, type ObjectKey } from './object-key';
import type { ByteRange, ListOptions, ListedObject, ObjectInfo, ObjectPage, ObjectStorage, WriteOptions } from './object-storage';

export interface S3StorageOptions {
  /** e.g. http://127.0.0.1:9000 for MinIO; unset: AWS's own endpoint for the region. */
  endpoint?: string;
  region: string;
  /** The one S3 bucket that holds every object; our `<bucket>/<org_id>/...` key is its object key. */
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO and most S3-compatible servers need. */
  forcePathStyle: boolean;
}

/**
 * Types S3-compatible servers record when a PUT named none (AWS: binary/octet-stream, others
 * application/octet-stream): they say nothing, so readers fall back to the extension.
 */
const GENERIC_TYPES = new Set([DEFAULT_CONTENT_TYPE, 'binary/octet-stream']);

const notFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

export function s3ClientConfig(options: S3StorageOptions): S3ClientConfig {
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined, // the SDK's default chain (environment, instance role, ...)
    // Recent SDKs add CRC checksums (aws-chunked bodies) to every request by default; several
    // S3-compatible servers reject those, so only send them where the operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/**
 * Objects in one S3 (or S3-compatible: MinIO, Ceph, R2) bucket through the official AWS SDK. The key
 * `<bucket>/<org_id>/...` is used as the S3 object key unchanged, so the layout matches the local
 * backend's folders and an export from one loads into the other.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(
    private readonly options: S3StorageOptions,
    client?: S3Client,
  ) {
    this.client = client ?? new S3Client(s3ClientConfig(options));
  }

  private key(key: ObjectKey): string {
    return formatObjectKey(assertObjectKey(key));
  }

  async stat(key: ObjectKey): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? `"${(head.LastModified ?? new Date(0)).getTime().toString(16)}"`,
        lastModified: head.LastModified ?? new Date(0),
        contentType: head.ContentType && !GENERIC_TYPES.has(head.ContentType) ? head.ContentType : undefined,
      };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async read(key: ObjectKey, range?: ByteRange): Promise<Readable | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.key(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = out.Body;
      if (!body) return Readable.from([]);
      // In Node the SDK hands back an http.IncomingMessage; other runtimes give a web stream.
      if (body instanceof Readable) return body;
      return Readable.fromWeb(body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async write(key: ObjectKey, data: Buffer | Uint8Array | string, options: WriteOptions = {}): Promise<ObjectInfo> {
    const body = typeof data === 'string' ? Buffer.from(data) : data;
    // Always record a type (the extension's when none is given), so every reader of the bucket gets one.
    const contentType = options.contentType ?? contentTypeFor(key.name);
    const out = await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(key),
        Body: body,
        ContentType: contentType,
        ContentLength: body.byteLength,
      }),
    );
    return { size: body.byteLength, etag: out.ETag ?? '""', lastModified: new Date(), contentType };
  }

  async list(bucket: string, orgId: string, options: ListOptions = {}): Promise<ObjectPage> {
    const owner = assertListScope(bucket, orgId);
    const limit = listLimit(options.limit);
    const out = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.options.bucket,
        Prefix: `${bucket}/${owner}${options.prefix ?? ''}`,
        MaxKeys: limit,
        StartAfter: options.after ? `${bucket}/${options.after}` : undefined,
      }),
    );
    const objects: ListedObject[] = [];
    let last: string | undefined;
    for (const item of out.Contents ?? []) {
      if (!item.Key) continue;
      last = item.Key.slice(bucket.length + 1);
      const key = { bucket, name: last };
      // Objects put there by other tools under names this backend cannot address are left out.
      if (isValidKey(key)) objects.push({ key, size: item.Size ?? 0, lastModified: item.LastModified ?? new Date(0) });
    }
    return { objects, next: out.IsTruncated ? last : undefined };
  }

  async delete(key: ObjectKey): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }));
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.options.bucket }));
  }
}
