/**
 * `head` + the items joined by commas + `tail`, as UTF-8 bytes, written straight into one buffer: the
 * JSON of a page whose items are already JSON text (ReadyJson). Neither `items.join(',')` nor a
 * template string first: on a page of megabytes building that one large string costs more than the
 * parse and stringify it replaces (docs/benchmarks.md, "ReadyJson").
 */
export function jsonArrayBytes(head: string, items: readonly string[], tail: string): Buffer {
  let total = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, items.length - 1);
  for (const item of items) total += Buffer.byteLength(item);
  const out = Buffer.allocUnsafe(total);
  let at = out.write(head, 0);
  for (let i = 0; i < items.length; i++) {
    if (i) out[at++] = 0x2c; // ,
    at += out.write(items[i], at);
  }
  out.write(tail, at);
  return out;
}
