import { createHash, randomBytes } from 'node:crypto';

/** Prefix of every API token, so a leaked one is recognisable by secret scanners. */
export const API_TOKEN_PREFIX = 'mapi_';

export interface NewApiToken {
  /** The token itself: shown once, never stored. */
  token: string;
  /** SHA-256 hex of the token: what is stored and looked up. */
  hash: string;
  /** First characters, kept to recognise a token in listings. */
  display_prefix: string;
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function generateApiToken(): NewApiToken {
  const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashApiToken(token), display_prefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
