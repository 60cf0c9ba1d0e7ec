/**
 * Replies larger than the server's max_payload (1 MiB by default; a 2000-message page is several MiB)
 * travel as numbered chunks on the reply subject; the client reassembles them.
 */
export const RpcHeader = {
  status: 'x-rpc-status',
  chunk: 'x-rpc-chunk',
  chunks: 'x-rpc-chunks',
  requestId: 'x-request-id',
} as const;

/** Room left for headers inside one NATS message. */
const HEADER_ROOM = 1024;

export function splitIntoChunks(body: Uint8Array, maxPayload: number): Uint8Array[] {
  const size = Math.max(1024, maxPayload - HEADER_ROOM);
  if (body.length <= size) return [body];
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < body.length; offset += size) chunks.push(body.subarray(offset, offset + size));
  return chunks;
}

/** One buffer of the reply; a reply of one chunk is wrapped without copying. */
export function joinChunks(chunks: Uint8Array[]): Buffer {
  if (chunks.length === 1) return Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength);
  return Buffer.concat(chunks);
}
