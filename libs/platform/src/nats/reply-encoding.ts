import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Encodings a large RPC reply may travel in, as HTTP names them (the gateway passes them on as they are). */
export type ReplyEncoding = 'gzip' | 'br';

/**
 * Replies of at least this many bytes are compressed by the service when the caller asks
 * (RpcCallOptions.acceptEncoding). Smaller ones go plain and the gateway compresses them itself: below
 * this the hop costs little, and a 100-message page (≈ 160 KB) stays one NATS message either way.
 */
export const REPLY_COMPRESSION_MIN_BYTES = 64 * 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** The encoding named by a request's `x-rpc-accept-encoding`, if it is one this server produces. */
export function replyEncodingOf(value: string | undefined): ReplyEncoding | undefined {
  return value === 'gzip' || value === 'br' ? value : undefined;
}

/**
 * Compresses a reply's JSON on libuv's pool (off the event loop) at the lowest level: it already
 * shrinks a page of messages many times over, and higher levels cost several times the CPU for a
 * modest gain in ratio (docs/benchmarks.md, "Compression").
 */
export function encodeReply(body: Buffer, encoding: ReplyEncoding): Promise<Buffer> {
  return encoding === 'gzip'
    ? gzipAsync(body, { level: 1 })
    : brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}
