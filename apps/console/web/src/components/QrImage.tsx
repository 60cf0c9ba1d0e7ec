import { useMemo } from 'react';
import encodeQR from 'qr';

/** A QR code as an image a phone's camera can scan (SVG, drawn from the text; a new text redraws it). */
export function QrImage({ text, label }: { text: string; label: string }) {
  const src = useMemo(
    () => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(encodeQR(text, 'svg', { ecc: 'medium', border: 2 }))}`,
    [text],
  );
  return <img className="qr" src={src} alt={label} width={264} height={264} data-qr={text} />;
}
