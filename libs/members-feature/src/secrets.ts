import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: session tokens, CSRF tokens and invitation tokens. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored of a secret: its SHA-256, hex (a 256-bit random secret needs no slow hash). */
export const sha256Hex = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * Passwords (argon2id) live in @mapi/platform (libs/platform/src/auth/password.ts): the admin CLI
 * writes owners' passwords too, and its scope may not import this service's lib.
 */
export { hashPassword, verifyPassword, verifyNothing } from '@mapi/platform';
