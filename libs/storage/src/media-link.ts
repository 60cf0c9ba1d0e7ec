import type { ObjectKey } from './object-key';

/**
 * The media app's links to stored objects: `{media_base_url}/app/media/<bucket>/<name>`, each
 * segment URL-encoded. apps/media builds and parses them (with an optional `?jwt=`); services that
 * store files for it (the knowledge base) hand out the same links, so the format lives here once.
 */
export const MEDIA_PATH = '/app/media/';

/** `{media_base_url}/app/media/<bucket>/`: what every link to an object of the bucket starts with. */
export function mediaBucketBase(mediaBaseUrl: string, bucket: string): string {
  return `${mediaBaseUrl.replace(/\/+$/, '')}${MEDIA_PATH}${encodeURIComponent(bucket)}/`;
}

/** A name with each segment encoded (equal to encoding segment by segment, since `/` encodes as `%2F`). */
export function encodeObjectName(name: string): string {
  const encoded = encodeURIComponent(name);
  return encoded.indexOf('%2F') < 0 ? encoded : encoded.replaceAll('%2F', '/');
}

/** The link to an object, without a token. */
export function mediaLink(mediaBaseUrl: string, key: ObjectKey): string {
  return mediaBucketBase(mediaBaseUrl, key.bucket) + encodeObjectName(key.name);
}
