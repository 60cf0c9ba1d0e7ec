import { ErrorCode } from '@mapi/contracts';
import { contentTypeFor, ownerOf, type ObjectKey, type ObjectStorage } from '@mapi/storage';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MediaLinks } from '../links/media-links';
import { MediaTokenError, type MediaTokenService } from '../tokens/media-token-service';
import { decideRange } from './byte-range';
import { isNotModified, rangeStillApplies } from './conditional';
import type { PublicFiles } from './public-files';

/** Codes of the file route's error envelope (from the API's table in libs/contracts). */
export const MediaErrorCode = {
  UNAUTHORIZED_ERROR: ErrorCode.UNAUTHORIZED_ERROR,
  FORBIDDEN_ERROR: ErrorCode.FORBIDDEN_ERROR,
  NOT_FOUND_ERROR: ErrorCode.NOT_FOUND_ERROR,
  RANGE_NOT_SATISFIABLE_ERROR: ErrorCode.RANGE_NOT_SATISFIABLE_ERROR,
} as const;

export interface MediaFileHandlerOptions {
  links: MediaLinks;
  tokens: MediaTokenService;
  storage: ObjectStorage;
  publicFiles: PublicFiles;
  publicMaxAgeSeconds: number;
  privateMaxAgeSeconds: number;
  now?: () => Date;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * GET/HEAD {media_base_url}/app/media/<bucket>/<org_id>/...?jwt=... — the file, as a CDN origin
 * would serve it. Access is decided before the file is looked at, so a refusal says nothing about
 * whether a file exists: a `jwt`, when present, must be valid, unexpired and of the owning
 * organization (401 / 403); without one, only files published with a public link are served (401).
 */
export class MediaFileHandler {
  private readonly now: () => Date;

  constructor(private readonly options: MediaFileHandlerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  handle = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      const rawUrl = req.raw.url ?? '';
      const q = rawUrl.indexOf('?');
      const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
      const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
      const key = this.options.links.keyFromServedPath(path);
      if (!key) throw new Refusal(404, MediaErrorCode.NOT_FOUND_ERROR, 'No such file');
      const cacheControl = await this.authorize(key, query.getAll('jwt'));
      return await this.sendFile(req, reply, key, cacheControl);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="media", error="invalid_token"');
      return reply
        .status(error.status)
        .header('Cache-Control', 'no-store')
        .type('application/json; charset=utf-8')
        .send({ code: error.code, message: error.message, status: error.status });
    }
  };

  /** Throws a Refusal unless the request may read `key`; returns the Cache-Control for the answer. */
  private async authorize(key: ObjectKey, jwts: string[]): Promise<string> {
    const owner = ownerOf(key).toLowerCase();
    if (jwts.length > 1) throw new Refusal(401, MediaErrorCode.UNAUTHORIZED_ERROR, 'More than one jwt parameter');
    if (jwts.length === 1) {
      let grant;
      try {
        grant = await this.options.tokens.verify(jwts[0]);
      } catch (error) {
        if (!(error instanceof MediaTokenError)) throw error;
        const message =
          error.reason === 'expired' ? 'The link has expired: migrate the URL again for a new one' : 'The link token is not valid';
        throw new Refusal(401, MediaErrorCode.UNAUTHORIZED_ERROR, message);
      }
      if (grant.orgId.toLowerCase() !== owner)
        throw new Refusal(403, MediaErrorCode.FORBIDDEN_ERROR, 'The link token belongs to a different organization');
      // A shared cache must not keep serving the file after the token has expired.
      const remaining = Math.max(0, Math.floor((grant.expiresAt.getTime() - this.now().getTime()) / 1000));
      return `private, max-age=${Math.min(remaining, this.options.privateMaxAgeSeconds)}`;
    }
    if (!(await this.options.publicFiles.isPublic(owner, key))) {
      throw new Refusal(401, MediaErrorCode.UNAUTHORIZED_ERROR, 'This file is private: a link with a valid jwt is required');
    }
    return `public, max-age=${this.options.publicMaxAgeSeconds}`;
  }

  private async sendFile(req: FastifyRequest, reply: FastifyReply, key: ObjectKey, cacheControl: string): Promise<FastifyReply> {
    const { storage } = this.options;
    const info = await storage.stat(key);
    if (!info) throw new Refusal(404, MediaErrorCode.NOT_FOUND_ERROR, 'No such file');
    const fileName = key.name.slice(key.name.lastIndexOf('/') + 1);
    reply
      .header('ETag', info.etag)
      .header('Last-Modified', info.lastModified.toUTCString())
      .header('Cache-Control', cacheControl)
      .header('Accept-Ranges', 'bytes')
      .header('X-Content-Type-Options', 'nosniff')
      // Uploaded files are untrusted content: never let one run script on this origin (e.g. an SVG).
      .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox")
      .header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(fileName)}`);

    if (
      isNotModified(
        { ifNoneMatch: header(req, 'if-none-match'), ifModifiedSince: header(req, 'if-modified-since') },
        info.etag,
        info.lastModified,
      )
    ) {
      return reply.status(304).send();
    }
    reply.header('Content-Type', info.contentType ?? contentTypeFor(key.name));
    const decision = rangeStillApplies(header(req, 'if-range'), info.etag, info.lastModified)
      ? decideRange(header(req, 'range'), info.size)
      : ({ kind: 'full' } as const);
    if (decision.kind === 'unsatisfiable') {
      return reply
        .status(416)
        .header('Content-Range', `bytes */${info.size}`)
        .header('Cache-Control', 'no-store')
        .type('application/json; charset=utf-8')
        .send({
          code: MediaErrorCode.RANGE_NOT_SATISFIABLE_ERROR,
          message: `The range is outside the file (${info.size} bytes)`,
          status: 416,
        });
    }
    const range = decision.kind === 'partial' ? decision.range : undefined;
    const length = range ? range.end - range.start + 1 : info.size;
    reply.status(range ? 206 : 200).header('Content-Length', length);
    if (range) reply.header('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
    if (req.method === 'HEAD' || length === 0) return reply.send();
    const body = await storage.read(key, range);
    if (!body) throw new Refusal(404, MediaErrorCode.NOT_FOUND_ERROR, 'No such file');
    return reply.send(body);
  }
}
