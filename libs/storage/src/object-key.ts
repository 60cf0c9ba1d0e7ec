/**
 * Object keys are `<bucket>/<org_id>/<name...>`: the bucket, then the object's name inside it whose
 * first segment is the owning organization. Keys are kept decoded (a space is a space, `ü` is `ü`);
 * percent-encoding belongs to URLs, never to storage.
 */
export interface ObjectKey {
  bucket: string;
  /** The name inside the bucket, segments joined with `/` (first segment: the organization id). */
  name: string;
}

/** S3's limit on a whole key, in UTF-8 bytes; also keeps local paths well under PATH_MAX. */
export const MAX_KEY_BYTES = 1024;
/** Most filesystems cap one path component at 255 bytes. */
export const MAX_SEGMENT_BYTES = 255;
/** Bucket names as the legacy store allowed them: letters, digits, `_`, `.`, `-`; not `.`/`..`. */
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

export class InvalidObjectKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidObjectKeyError';
  }
}

/** Why a segment cannot be part of a key, or null when it can. */
export function segmentProblem(segment: string): string | null {
  if (segment === '') return 'empty path segment';
  if (segment === '.' || segment === '..') return `path segment "${segment}" is not allowed`;
  if (segment.includes('\0')) return 'NUL in path segment';
  if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `path segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  return null;
}

export function isValidBucketName(bucket: string): boolean {
  return BUCKET.test(bucket) && !bucket.includes('..');
}

/** Checks a key (bucket name, at least an owner and a file segment, safe segments) and returns it. */
export function assertObjectKey(key: ObjectKey): ObjectKey {
  if (!isValidBucketName(key.bucket)) throw new InvalidObjectKeyError(`invalid bucket name "${key.bucket}"`);
  const segments = key.name.split('/');
  if (segments.length < 2) throw new InvalidObjectKeyError('an object name is <org_id>/<file...>');
  for (const s of segments) {
    const problem = segmentProblem(s);
    if (problem) throw new InvalidObjectKeyError(problem);
  }
  if (Buffer.byteLength(`${key.bucket}/${key.name}`) > MAX_KEY_BYTES) throw new InvalidObjectKeyError(`key longer than ${MAX_KEY_BYTES} bytes`);
  return key;
}

/** The owning organization: the first segment of the name. */
export function ownerOf(key: ObjectKey): string {
  return key.name.split('/', 1)[0];
}

/** `<bucket>/<name>`, the key's single-string form (also the S3 object key). */
export function formatObjectKey(key: ObjectKey): string {
  return `${key.bucket}/${key.name}`;
}

/** The inverse of formatObjectKey, validated. */
export function parseObjectKey(text: string): ObjectKey {
  const slash = text.indexOf('/');
  if (slash < 0) throw new InvalidObjectKeyError('an object key is <bucket>/<org_id>/<file...>');
  return assertObjectKey({ bucket: text.slice(0, slash), name: text.slice(slash + 1) });
}
