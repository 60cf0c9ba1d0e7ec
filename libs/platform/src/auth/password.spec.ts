import { NewPasswordSchema } from '@mapi/contracts';
import { generatePassword, hashPassword, verifyNothing, verifyPassword } from './password';

describe('console passwords', () => {
  it('hashes with argon2id at OWASP minimum parameters, as a PHC string without the password', async () => {
    const phc = await hashPassword('correct horse battery');
    expect(phc).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(phc).not.toContain('correct horse battery');
    expect(await hashPassword('correct horse battery')).not.toBe(phc); // salted
    expect(await verifyPassword(phc, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(phc, 'correct horse batterY')).toBe(false);
  });

  it('answers false, never throws, for a malformed hash or an unknown account', async () => {
    expect(await verifyPassword('not a phc string', 'whatever')).toBe(false);
    expect(await verifyNothing('whatever')).toBe(false);
  });

  it("generates distinct 24-character letter-and-digit passwords that accept-invite's rule takes", () => {
    const passwords = Array.from({ length: 50 }, () => generatePassword());
    expect(new Set(passwords).size).toBe(50);
    for (const password of passwords) {
      expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
      expect(NewPasswordSchema.safeParse(password).success).toBe(true);
    }
    // Every character of the alphabet turns up (no bias to a subset).
    expect(new Set(passwords.join('')).size).toBe(62);
  });
});
