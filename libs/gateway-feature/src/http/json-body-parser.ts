import type { FastifyInstance } from 'fastify';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies, where an empty body means "no body" (the purge route takes an empty body to mean
 * "everything") and malformed JSON is a 422 rather than the framework's 400. The body limit still applies.
 * Read as bytes and decoded strictly: a body that is not UTF-8 (a gzipped body, say — requests are
 * not decompressed) is malformed JSON too. Read as a string, Fastify counted the decoded length
 * against Content-Length and failed such a body with a 500.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    // kept for routes that check a signature over the exact bytes (`rawBody` routes): a reference, not a copy
    (req as { rawBody?: Buffer }).rawBody = body as Buffer;
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(Object.assign(new Error('Body is not UTF-8'), { code: 'MALFORMED_JSON', statusCode: 422 }), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Malformed JSON'), { code: 'MALFORMED_JSON', statusCode: 422 }), undefined);
    }
  });
}
