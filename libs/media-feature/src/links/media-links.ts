import { MEDIA_PATH, encodeObjectName, mediaBucketBase, nameProblem, type ObjectKey } from '@mapi/storage';

export type LinkProblem = 'not-a-url' | 'not-a-service-bucket' | 'other-organization';

/** Why an input cannot become a media link; the message is what the client reads in `{ error }`. */
export class MediaLinkError extends Error {
  constructor(
    readonly problem: LinkProblem,
    message: string,
  ) {
    super(message);
    this.name = 'MediaLinkError';
  }
}

export interface MediaLinksOptions {
  /** `{media_base_url}`, no trailing slash. */
  mediaBaseUrl: string;
  /** `{legacy_storage_url}`, no trailing slash. */
  legacyStorageUrl: string;
  /** Buckets the service owns. */
  buckets: readonly string[];
}

/** Inputs longer than this are refused before parsing (a URL of a stored file is far shorter). */
export const MAX_URL_LENGTH = 8192;

/**
 * Reads the three URL forms the service accepts and writes its own:
 * - legacy bucket links `{legacy_storage_url}/<bucket>/<org_id>%2F<file>` (the rest of the path may be
 *   one encoded object name or several segments),
 * - legacy relative paths `/storage/v1/object/public/<bucket>/<org_id>/...` (the path of
 *   `{legacy_storage_url}`),
 * - service links `{media_base_url}/app/media/<bucket>/<org_id>/...` (any `jwt` is dropped).
 * Every path segment is percent-decoded once; a decoded `/` (from `%2F`) separates segments, since an
 * object name cannot contain one. Links are written back with each segment encoded.
 */
export class MediaLinks {
  private readonly media: URL;
  private readonly legacy: URL;
  private readonly mediaPrefix: string;
  private readonly legacyPrefix: string;
  private readonly buckets: ReadonlySet<string>;
  private readonly bucketBases = new Map<string, string>();

  constructor(private readonly options: MediaLinksOptions) {
    this.media = new URL(options.mediaBaseUrl);
    this.legacy = new URL(options.legacyStorageUrl);
    this.mediaPrefix = `${this.media.pathname.replace(/\/+$/, '')}${MEDIA_PATH}`;
    this.legacyPrefix = `${this.legacy.pathname.replace(/\/+$/, '')}/`;
    this.buckets = new Set(options.buckets);
  }

  /** The path, under the media app's root, at which files are served (`/app/media/` plus any base path). */
  get servedPathPrefix(): string {
    return this.mediaPrefix;
  }

  /** The object a legacy or service URL names, or a MediaLinkError. Ownership is the caller's check. */
  parse(input: unknown): ObjectKey {
    const text = typeof input === 'string' ? input.trim() : '';
    if (text === '') throw new MediaLinkError('not-a-url', 'Not a URL');
    if (text.length > MAX_URL_LENGTH) throw new MediaLinkError('not-a-url', `URL is longer than ${MAX_URL_LENGTH} characters`);
    const url = this.toUrl(text);
    let rest: string | undefined;
    // Same origin = same scheme and host (with any non-default port): both are http(s) here.
    const { protocol, host, pathname } = url;
    if (protocol === this.media.protocol && host === this.media.host && pathname.startsWith(this.mediaPrefix))
      rest = pathname.slice(this.mediaPrefix.length);
    else if (protocol === this.legacy.protocol && host === this.legacy.host && pathname.startsWith(this.legacyPrefix))
      rest = pathname.slice(this.legacyPrefix.length);
    if (rest === undefined) {
      throw new MediaLinkError('not-a-url', 'Not a legacy storage URL or a media URL of this service');
    }
    return this.keyFromPath(rest);
  }

  /** The object named by a request path of the file route, or null when it names none. */
  keyFromServedPath(rawPath: string): ObjectKey | null {
    if (!rawPath.startsWith(this.mediaPrefix)) return null;
    try {
      return this.keyFromPath(rawPath.slice(this.mediaPrefix.length));
    } catch {
      return null;
    }
  }

  /** `{media_base_url}/app/media/<bucket>/<segments...>`, each segment encoded, `?jwt=` when given. */
  build(key: ObjectKey, token?: string): string {
    return `${this.bucketBase(key.bucket)}${encodeObjectName(key.name)}${token ? `?jwt=${token}` : ''}`;
  }

  /**
   * A builder for many links of one token (a batch): the `?jwt=` suffix and each bucket's base are
   * made once instead of once per link.
   */
  builder(token?: string): (key: ObjectKey) => string {
    const suffix = token ? `?jwt=${token}` : '';
    return (key) => `${this.bucketBase(key.bucket)}${encodeObjectName(key.name)}${suffix}`;
  }

  private bucketBase(bucket: string): string {
    let base = this.bucketBases.get(bucket);
    if (base === undefined) {
      base = mediaBucketBase(this.options.mediaBaseUrl, bucket);
      if (this.buckets.has(bucket)) this.bucketBases.set(bucket, base); // bounded: only the service's buckets
    }
    return base;
  }

  private toUrl(text: string): URL {
    // Relative paths: the legacy store's (`media.path` of old messages) and, for symmetry, ours.
    if (text.startsWith('/') && !text.startsWith('//')) {
      if (text.startsWith(this.mediaPrefix)) return new URL(text, this.media.origin);
      return new URL(text, this.legacy.origin);
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new MediaLinkError('not-a-url', 'Not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MediaLinkError('not-a-url', 'Not an http(s) URL');
    return url;
  }

  /**
   * `<bucket>/<name...>` of a URL path (still percent-encoded) as a key. Decoding the whole name at
   * once is the same as decoding each segment and joining them with `/` (an escape never spans a `/`),
   * and a decoded `%2F` then separates segments like a literal `/`; names without `%` skip decoding.
   */
  private keyFromPath(rest: string): ObjectKey {
    const slash = rest.indexOf('/');
    const bucket = decodeComponent(slash < 0 ? rest : rest.slice(0, slash));
    if (!this.buckets.has(bucket))
      throw new MediaLinkError('not-a-service-bucket', `Bucket "${bucket}" is not a media bucket of this service`);
    const name = slash < 0 ? '' : decodeComponent(rest.slice(slash + 1));
    if (name.indexOf('/') < 0) throw new MediaLinkError('not-a-url', 'URL does not name a file (expected <bucket>/<org_id>/<file>)');
    const problem = nameProblem(name);
    if (problem) throw new MediaLinkError('not-a-url', `URL does not name a file: ${problem}`);
    return { bucket, name };
  }
}

function decodeComponent(raw: string): string {
  if (raw.indexOf('%') < 0) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new MediaLinkError('not-a-url', 'URL has malformed percent-encoding');
  }
}
