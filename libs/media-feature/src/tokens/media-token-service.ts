import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, errors, jwtVerify, type JWTHeaderParameters } from 'jose';
import { MAX_LINK_EXPIRY_SECONDS } from '@mapi/contracts';
import type { SigningKey } from './signing-keys';

/** Accepted clock difference between the signer and the verifier (other replicas, a CDN edge). */
export const CLOCK_TOLERANCE_SECONDS = 5;
const ISSUER = 'mapi-media';
const AUDIENCE = 'mapi-media-link';
const ALG = 'HS256';

/** What a valid private-link token grants: the files of one organization, until `expiresAt`. */
export interface MediaGrant {
  orgId: string;
  access: 'private';
  expiresAt: Date;
}

export type TokenRejection = 'malformed' | 'expired' | 'invalid';

export class MediaTokenError extends Error {
  constructor(
    readonly reason: TokenRejection,
    message: string,
  ) {
    super(message);
    this.name = 'MediaTokenError';
  }
}

/**
 * Signs and verifies the `jwt` of private media links with jose: HS256 only (the algorithm is
 * pinned, so `none` or a swapped algorithm never verifies), a `kid` so keys can rotate, `exp`
 * required. The claims bind the organization and the access level, not a file: one token is
 * shared by every link of a batch and opens only files whose owner segment is that organization.
 */
export class MediaTokenService {
  private readonly current: { kid: string; key: KeyObject };
  private readonly byKid: Map<string, { key: KeyObject; retiredAt?: Date }>;

  constructor(
    keys: readonly SigningKey[],
    private readonly now: () => Date = () => new Date(),
  ) {
    if (!keys.length) throw new Error('at least one signing key is needed');
    this.byKid = new Map(keys.map((k) => [k.kid, { key: createSecretKey(Buffer.from(k.secret)), retiredAt: k.retiredAt }]));
    this.current = { kid: keys[0].kid, key: this.byKid.get(keys[0].kid)!.key };
  }

  async issue(orgId: string, expiresInSeconds: number): Promise<{ token: string; expiresAt: Date }> {
    const iat = Math.floor(this.now().getTime() / 1000);
    const exp = iat + expiresInSeconds;
    const token = await new SignJWT({ org: orgId, acc: 'private' })
      .setProtectedHeader({ alg: ALG, kid: this.current.kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.current.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  async verify(token: string): Promise<MediaGrant> {
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    try {
      const { payload, protectedHeader } = await jwtVerify(token, (header: JWTHeaderParameters) => this.keyFor(header, nowSeconds), {
        algorithms: [ALG],
        issuer: ISSUER,
        audience: AUDIENCE,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'org', 'acc'],
        currentDate: this.now(),
      });
      if (typeof payload.org !== 'string' || payload.acc !== 'private') throw new MediaTokenError('invalid', 'token claims are invalid');
      const retiredAt = this.byKid.get(protectedHeader.kid!)?.retiredAt;
      // A retired key signs nothing new: a token it "issued" after retirement is forged or misconfigured.
      if (retiredAt && payload.iat! > retiredAt.getTime() / 1000 + CLOCK_TOLERANCE_SECONDS) {
        throw new MediaTokenError('invalid', 'token signed by a retired key');
      }
      return { orgId: payload.org, access: 'private', expiresAt: new Date(payload.exp! * 1000) };
    } catch (error) {
      throw this.rejection(error);
    }
  }

  /** The key named by `kid`; a retired key only for links it could have signed and that could still be alive. */
  private keyFor(header: JWTHeaderParameters, nowSeconds: number): KeyObject {
    const entry = header.kid ? this.byKid.get(header.kid) : undefined;
    if (!entry) throw new MediaTokenError('invalid', 'unknown signing key');
    if (entry.retiredAt) {
      const retired = Math.floor(entry.retiredAt.getTime() / 1000);
      if (nowSeconds > retired + MAX_LINK_EXPIRY_SECONDS + CLOCK_TOLERANCE_SECONDS)
        throw new MediaTokenError('invalid', 'signing key has been retired');
    }
    return entry.key;
  }

  private rejection(error: unknown): MediaTokenError {
    if (error instanceof MediaTokenError) return error;
    if (error instanceof errors.JWTExpired) return new MediaTokenError('expired', 'the link has expired');
    if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid)
      return new MediaTokenError('malformed', 'the token is malformed');
    return new MediaTokenError('invalid', 'the token is not valid');
  }
}
