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
  // A UTF-16 unit is at most 3 UTF-8 bytes, so only long segments need their bytes counted.
  if (segment.length * 3 > MAX_SEGMENT_BYTES && Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
    return `path segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** Matches a name with an empty, `.` or `..` segment, or a NUL anywhere. */
const SUSPECT_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)|\0/;

/** Why a name (`<org_id>/<file...>`, segments joined with `/`) has a segment that cannot be in a key, or null. */
export function nameProblem(name: string): string | null {
  // Fast path (one regex, no split): no empty, `.`, `..` or NUL segment, and too short for a long one.
  if (!SUSPECT_SEGMENT.test(name) && name.length * 3 <= MAX_SEGMENT_BYTES) return null;
  for (const segment of name.split('/')) {
    const problem = segmentProblem(segment);
    if (problem) return problem;
  }
  return null;
}

export function isValidBucketName(bucket: string): boolean {
  return BUCKET.test(bucket) && !bucket.includes('..');
}

/** Checks a key (bucket name, at least an owner and a file segment, safe segments) and returns it. */
export function assertObjectKey(key: ObjectKey): ObjectKey {
  if (!isValidBucketName(key.bucket)) throw new InvalidObjectKeyError(`invalid bucket name "${key.bucket}"`);
  if (key.name.indexOf('/') < 0) throw new InvalidObjectKeyError('an object name is <org_id>/<file...>');
  const problem = nameProblem(key.name);
  if (problem) throw new InvalidObjectKeyError(problem);
  if ((key.bucket.length + 1 + key.name.length) * 3 > MAX_KEY_BYTES && Buffer.byteLength(`${key.bucket}/${key.name}`) > MAX_KEY_BYTES)
    throw new InvalidObjectKeyError(`key longer than ${MAX_KEY_BYTES} bytes`);
  return key;
}

/** assertObjectKey without the exception. */
export function isValidKey(key: ObjectKey): boolean {
  try {
    assertObjectKey(key);
    return true;
  } catch {
    return false;
  }
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

/** Checks the bucket and organization of a listing (the org is one segment) and returns `<org_id>/`. */
export function assertListScope(bucket: string, orgId: string): string {
  if (!isValidBucketName(bucket)) throw new InvalidObjectKeyError(`invalid bucket name "${bucket}"`);
  const problem = orgId.includes('/') ? 'an organization id is one path segment' : segmentProblem(orgId);
  if (problem) throw new InvalidObjectKeyError(problem);
  return `${orgId}/`;
}

/** The largest page of a listing (S3's own maximum). */
export const MAX_LIST_LIMIT = 1000;

/** The page size of a listing, 1..MAX_LIST_LIMIT (default MAX_LIST_LIMIT). */
export function listLimit(limit: number | undefined): number {
  if (limit === undefined) return MAX_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidObjectKeyError('a listing limit is a positive integer');
  return Math.min(limit, MAX_LIST_LIMIT);
}
