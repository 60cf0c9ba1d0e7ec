import { Readable } from 'node:stream';

/**
 * A reply's parts (the NATS chunks of a large page, in order) as a stream Fastify pipes to the
 * socket: the bytes go out as they arrived, never joined into one buffer — on a large page that copy
 * is megabytes of external memory per request, and the GC it sets off would take most of the gateway's
 * CPU (docs/decisions/0040-replies-travel-in-16-kib-chunks.md). Every part is handed over on the first
 * read: there is nothing to wait for.
 */
export function partsStream(parts: readonly Uint8Array[]): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      for (const part of parts) this.push(part);
      this.push(null);
    },
  });
}
