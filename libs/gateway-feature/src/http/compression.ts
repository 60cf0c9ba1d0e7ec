import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { ReplyEncoding } from '@mapi/platform';

/** Bodies smaller than this go out as they are (a header-sized body gains nothing from compression). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Response compression: br or gzip, as the request's Accept-Encoding prefers, for
 * compressible bodies (JSON, HTML; mime-db's list, so images, video and other media that are already
 * compressed go out untouched) of at least COMPRESSION_THRESHOLD_BYTES. The lowest levels: they
 * already shrink a page of messages many times over for little CPU, where higher levels cost several
 * times that for a modest gain, which a CPU-bound gateway pays in throughput (docs/benchmarks.md, "Compression").
 * Requests are not decompressed: a body with a Content-Encoding is read as sent.
 * socket.io shares the server but not Fastify's hooks, so realtime frames are unaffected.
 */
export async function registerCompression(fastify: FastifyInstance): Promise<void> {
  await fastify.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
  });
}

/** What the gateway prefers on a tie of q-values, as the plugin is configured above. */
const PREFERENCE: readonly ReplyEncoding[] = ['br', 'gzip'];

/**
 * The encoding a JSON answer should go out in for this request's Accept-Encoding, negotiated as the
 * plugin does (highest q, br first on a tie, `*` stands for any encoding not named, q=0 refuses), or
 * undefined for a plain answer. The gateway passes it to the service (RpcCallOptions.acceptEncoding),
 * which compresses a large reply before the NATS hop; the plugin then leaves that body as it is.
 */
export function preferredEncoding(acceptEncoding: string | undefined, noCompression?: string): ReplyEncoding | undefined {
  if (!acceptEncoding || noCompression !== undefined) return undefined;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    if (!name) continue;
    const weight = params.find((p) => p.startsWith('q='));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  let best: ReplyEncoding | undefined;
  let bestQ = 0;
  for (const encoding of PREFERENCE) {
    const weight = q.get(encoding) ?? q.get('*') ?? 0;
    if (weight > bestQ) [best, bestQ] = [encoding, weight];
  }
  return best;
}
