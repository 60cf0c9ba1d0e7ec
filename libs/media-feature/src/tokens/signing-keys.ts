import { z } from 'zod';

/** HS256 keys shorter than the hash output (32 bytes) weaken the MAC; refuse them. */
export const MIN_SECRET_BYTES = 32;

export interface SigningKey {
  kid: string;
  secret: string;
  /**
   * When the key stopped being the current one. A retired key still verifies the links it signed
   * before then, until the longest link could have expired (retired_at + 7 days); after that, never.
   */
  retiredAt?: Date;
}

const KeySchema = z.object({
  kid: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'kid: 1-64 of letters, digits, . _ -'),
  secret: z.string().refine((s) => Buffer.byteLength(s) >= MIN_SECRET_BYTES, `secret must be at least ${MIN_SECRET_BYTES} bytes`),
  retired_at: z.iso.datetime({ offset: true }).optional(),
});

/** Parses MEDIA_JWT_KEYS: a non-empty JSON list, unique kids, the first (current) one not retired. */
export function parseSigningKeys(json: string): SigningKey[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('must be a JSON list of {kid, secret}');
  }
  const parsed = z.array(KeySchema).min(1, 'needs at least one key').safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`.trim()).join('; '));
  const keys = parsed.data.map((k) => ({ kid: k.kid, secret: k.secret, ...(k.retired_at ? { retiredAt: new Date(k.retired_at) } : {}) }));
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw new Error('kids must be unique');
  if (keys[0].retiredAt) throw new Error('the first key signs new links and cannot be retired');
  return keys;
}
