import type { Message } from '../../api/types';
import { fileSize, imageBox, mediaKind, thumbnailSrc } from './conversation-view';

/**
 * A message's file: an image thumbnail (the stored thumbnail until the link is known; the image
 * opens full size in a new tab), an inline audio or video player, or a document's download link.
 * `link` is the file's media link (undefined: still being asked for; null: none could be made).
 */
export function MessageMedia({ message, link }: { message: Message; link: string | null | undefined }) {
  const kind = mediaKind(message);
  if (!kind) return null;
  const media = message.media;
  const name = media?.filename || `${kind} file`;
  const size = fileSize(media?.size);
  if (!media?.path) return <span className="muted media-missing">({kind} not stored)</span>;
  if (link === null)
    return (
      <span className="muted media-missing" data-media={kind}>
        ({name}: no link could be made to this file)
      </span>
    );
  if (kind === 'image') {
    const src = link ?? thumbnailSrc(media.thumbnail);
    if (!src) return <span className="muted media-missing">(loading image…)</span>;
    const box = imageBox(media.dimensions);
    const img = (
      <img
        className="media-image"
        src={src}
        alt={message.body ? `Image: ${name}` : name}
        loading="lazy"
        data-media="image"
        width={box?.width}
        height={box?.height}
      />
    );
    return link ? (
      <a href={link} target="_blank" rel="noopener noreferrer" className="media-open">
        {img}
      </a>
    ) : (
      img
    );
  }
  if (link === undefined) return <span className="muted media-missing">(loading {kind}…)</span>;
  if (kind === 'audio') return <audio className="media-audio" controls preload="none" src={link} data-media="audio" aria-label={name} />;
  if (kind === 'video')
    return <video className="media-video" controls preload="metadata" src={link} data-media="video" aria-label={name} />;
  return (
    <a
      className="media-document"
      href={link}
      download={media.filename || true}
      target="_blank"
      rel="noopener noreferrer"
      data-media="document"
    >
      {name}
      <span className="muted">{size ? ` · ${size}` : ''} · download</span>
    </a>
  );
}
