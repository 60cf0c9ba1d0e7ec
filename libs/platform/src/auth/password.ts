import { randomBytes, randomInt } from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';

// Console passwords, shared by the members service (accept-invite, sign-in) and the admin CLI
// (members:create-owner, seed:demo): one hashing rule for every writer of `members.password_hash`.

/**
 * argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane), @node-rs/argon2's defaults, written in
 * the PHC string format so the parameters travel with each hash and can be raised later.
 */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);

/** Whether the password matches the PHC string; false (never a throw) for a malformed hash. */
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
  dummy ??= hashPassword(randomBytes(32).toString('base64url'));
  await verifyPassword(await dummy, password);
  return false;
}

const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A password for an operator to hand over: 24 letters and digits (about 143 random bits), nothing a
 * shell or a copy from a terminal would mangle.
 */
export function generatePassword(length = 24): string {
  let password = '';
  for (let i = 0; i < length; i++) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}
