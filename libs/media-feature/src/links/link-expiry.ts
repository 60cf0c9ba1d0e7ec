import { MAX_LINK_EXPIRY_SECONDS, MIN_LINK_EXPIRY_SECONDS } from '@mapi/contracts';

/** Spec 4.8: a requested lifetime is clamped to 60..604800 seconds (whole seconds, rounded down). */
export function clampExpiry(seconds: number): number {
  if (!Number.isFinite(seconds)) return MAX_LINK_EXPIRY_SECONDS;
  return Math.min(MAX_LINK_EXPIRY_SECONDS, Math.max(MIN_LINK_EXPIRY_SECONDS, Math.floor(seconds)));
}
