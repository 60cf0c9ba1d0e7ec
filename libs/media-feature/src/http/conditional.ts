/** Conditional-request checks (RFC 9110 13.1) for GET/HEAD of a file with `etag` and `lastModified`. */

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match (weak comparison) or, without it, If-Modified-Since: true when 304 is the answer. */
export function isNotModified(headers: { ifNoneMatch?: string; ifModifiedSince?: string }, etag: string, lastModified: Date): boolean {
  if (headers.ifNoneMatch !== undefined) {
    const tags = headers.ifNoneMatch.split(',').map((t) => t.trim());
    return tags.includes('*') || tags.some((t) => opaque(t) === opaque(etag));
  }
  if (headers.ifModifiedSince) {
    const since = Date.parse(headers.ifModifiedSince);
    return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

/** If-Range: a Range applies only when the validator still matches (strong ETag, or the exact date). */
export function rangeStillApplies(ifRange: string | undefined, etag: string, lastModified: Date): boolean {
  if (!ifRange) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && value === etag;
  const date = Date.parse(value);
  return Number.isFinite(date) && Math.floor(lastModified.getTime() / 1000) === Math.floor(date / 1000);
}
