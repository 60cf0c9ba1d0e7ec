import { randomBytes } from 'node:crypto';
import { hashApiToken } from '@mapi/platform';

/** 256 random bits, base64url: session tokens, CSRF tokens and invitation tokens. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/**
 * What is stored of a secret: its SHA-256, hex (a 256-bit random secret needs no slow hash). The same
 * function the gateway hashes a session or CSRF cookie with to look it up, so the two cannot drift.
 */
export const sha256Hex = hashApiToken;

/**
 * Passwords (argon2id) live in @mapi/platform (libs/platform/src/auth/password.ts): the admin CLI
 * writes owners' passwords too, and its scope may not import this service's lib.
 */
export { hashPassword, verifyPassword, verifyNothing } from '@mapi/platform';
