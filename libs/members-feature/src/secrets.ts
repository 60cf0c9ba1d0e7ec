import { createHash, randomBytes } from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';

/** 256 random bits, base64url: session tokens, CSRF tokens and invitation tokens. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored of a secret: its SHA-256, hex (a 256-bit random secret needs no slow hash). */
export const sha256Hex = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane), @node-rs/argon2's defaults, written in
 * the PHC string format so the parameters travel with each hash and can be raised later.
 */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);

export async function verifyPassword(phc: string, password: string): Promise<boolean> {
  try {
    return await verify(phc, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * Spends the time of one verification when no account matches, so that an unknown address and a
 * wrong password take as long (nothing is told by timing).
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(newSecret());
  await verifyPassword(await dummy, password);
  return false;
}
