import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies, where an empty body means "no body" (the purge route takes an empty body to mean
 * "everything") and malformed JSON is a 422 rather than the framework's 400. The body limit still applies.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Malformed JSON'), { code: 'MALFORMED_JSON', statusCode: 422 }), undefined);
    }
  });
}
