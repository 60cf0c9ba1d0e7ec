import { randomInt } from 'node:crypto';

const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `phone-` + 16 random lowercase alphanumerics (spec 1, rule 4). */
export function newPhoneId(): string {
  let id = 'phone-';
  for (let i = 0; i < 16; i++) id += LOWER_ALPHANUMERIC[randomInt(LOWER_ALPHANUMERIC.length)];
  return id;
}
