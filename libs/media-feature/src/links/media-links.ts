import { segmentProblem, type ObjectKey } from '@mapi/storage';

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
const MEDIA_PATH = '/app/media/';

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
    if (typeof input !== 'string' || input.trim() === '') throw new MediaLinkError('not-a-url', 'Not a URL');
    const text = input.trim();
    if (text.length > MAX_URL_LENGTH) throw new MediaLinkError('not-a-url', `URL is longer than ${MAX_URL_LENGTH} characters`);
    const url = this.toUrl(text);
    let rest: string | undefined;
    if (url.origin === this.media.origin && url.pathname.startsWith(this.mediaPrefix)) rest = url.pathname.slice(this.mediaPrefix.length);
    else if (url.origin === this.legacy.origin && url.pathname.startsWith(this.legacyPrefix)) rest = url.pathname.slice(this.legacyPrefix.length);
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
    const path = [key.bucket, ...key.name.split('/')].map(encodeURIComponent).join('/');
    return `${this.options.mediaBaseUrl}${MEDIA_PATH}${path}${token ? `?jwt=${token}` : ''}`;
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

  private keyFromPath(rest: string): ObjectKey {
    const decoded: string[] = [];
    for (const raw of rest.split('/')) {
      try {
        decoded.push(decodeURIComponent(raw));
      } catch {
        throw new MediaLinkError('not-a-url', 'URL has malformed percent-encoding');
      }
    }
    const [bucket, ...nameParts] = decoded;
    if (!this.buckets.has(bucket)) throw new MediaLinkError('not-a-service-bucket', `Bucket "${bucket}" is not a media bucket of this service`);
    const segments = nameParts.join('/').split('/');
    if (segments.length < 2) throw new MediaLinkError('not-a-url', 'URL does not name a file (expected <bucket>/<org_id>/<file>)');
    for (const segment of segments) {
      const problem = segmentProblem(segment);
      if (problem) throw new MediaLinkError('not-a-url', `URL does not name a file: ${problem}`);
    }
    return { bucket, name: segments.join('/') };
  }
}
