/**
 * Replies larger than the server's max_payload (1 MiB by default; a 2000-message page is several MiB)
 * travel as numbered chunks on the reply subject; the client reassembles them.
 *
 * Requests larger than max_payload (a document upload) travel the same way, in two steps, because the
 * request subject is load-balanced over a queue group and the chunks must all reach one replica: the
 * client publishes chunk 0 on the request subject with `x-rpc-chunks: N`; the replica that receives it
 * answers on the reply subject with `x-rpc-status: continue` and `x-rpc-upload: <its private subject>`;
 * the client publishes chunks 1..N-1 there; the replica joins them and handles the request as usual.
 * A request that fits in one message carries no chunk headers, exactly as before.
 */
export const RpcHeader = {
  status: 'x-rpc-status',
  chunk: 'x-rpc-chunk',
  chunks: 'x-rpc-chunks',
  requestId: 'x-request-id',
  /** On a `continue` answer: where the client sends the rest of a chunked request. */
  upload: 'x-rpc-upload',
  /** On a request: the encoding the caller takes a large reply in (`gzip` or `br`; see reply-encoding.ts). */
  acceptEncoding: 'x-rpc-accept-encoding',
  /** On a reply: the encoding its bytes are in (absent: plain JSON). */
  contentEncoding: 'x-rpc-content-encoding',
} as const;

/** `x-rpc-status` of the answer that asks a client for the rest of a chunked request. */
export const RPC_STATUS_CONTINUE = 'continue';

/**
 * Largest chunk of a reply. Far under max_payload on purpose: nats.js copies a message that spans
 * socket reads (64 KiB) into a buffer it grows by doubling, so a large chunk makes several times its
 * size in short-lived ArrayBuffers; in the gateway that external memory sets off full mark-compacts of
 * its heap on large pages (docs/decisions/0040-replies-travel-in-16-kib-chunks.md).
 * A 16 KiB chunk mostly arrives inside one read and is handed over as a view of it, without a copy.
 */
export const REPLY_CHUNK_BYTES = 16 * 1024;

/**
 * Replies up to this size still go as one message (when max_payload allows): for them ten 16 KiB
 * messages cost more in per-message work than the one copy saves (a 100-message page is ~160 KB).
 */
export const SINGLE_MESSAGE_REPLY_BYTES = 256 * 1024;

/** The chunk size (max_payload-style, headers included) for a reply of `bytes`. */
export function replyChunkPayload(bytes: number, maxPayload: number): number {
  return bytes <= SINGLE_MESSAGE_REPLY_BYTES ? maxPayload : Math.min(maxPayload, REPLY_CHUNK_BYTES + HEADER_ROOM);
}

/** Room left for headers inside one NATS message. */
export const HEADER_ROOM = 1024;

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
