import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Bodies smaller than this go out as they are (a header-sized body gains nothing from compression). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Response compression (issue 20 item 3): br or gzip, as the request's Accept-Encoding prefers, for
 * compressible bodies (JSON, HTML; mime-db's list, so images, video and other media that are already
 * compressed go out untouched) of at least COMPRESSION_THRESHOLD_BYTES. The levels favour CPU over the
 * last bytes: a 2000-message page (3 MB) shrinks over 8x at brotli 4 / gzip 4 (docs/benchmarks.md,
 * "Compression"). Large bodies are compressed on libuv's pool, off the event loop.
 * Requests are not decompressed: a body with a Content-Encoding is read as sent, as before.
 * socket.io shares the server but not Fastify's hooks, so realtime frames are unaffected.
 */
export async function registerCompression(fastify: FastifyInstance): Promise<void> {
  await fastify.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 4 },
  });
}
