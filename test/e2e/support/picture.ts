import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { until } from './http';

/** A plain-coloured size×size 8-bit RGB PNG (an image a message carries, or the agent attaches). */
export function png(size: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: size }, () => Buffer.from(rgb))]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** In an open chat: attaches a size×size PNG (label.png) and sends it with `caption`. */
export async function sendPicture(page: Page, caption: string, size: number, rgb: [number, number, number] = [0, 90, 200]) {
  await page.getByLabel('Attach a file').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: png(size, rgb) });
  await page.getByLabel('Message', { exact: true }).fill(caption);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/**
 * Waits until `page` (the sender's or another agent's, the chat open) shows the sent message with
 * `caption` and its picture, loaded through the media links at the size it was sent: the network kept
 * the file in the media storage.
 */
export async function sentPictureShown(page: Page, caption: string, size: number) {
  const sent = page.locator('li.mine', { hasText: caption });
  await sent.waitFor({ timeout: 15_000 });
  const picture = sent.locator('img[data-media="image"]');
  await until(
    () => picture.evaluate((e: any) => (e.complete ? e.naturalWidth : 0), undefined, { timeout: 10_000 }),
    (width) => width === size,
    15_000,
    'the sent picture',
  );
}
