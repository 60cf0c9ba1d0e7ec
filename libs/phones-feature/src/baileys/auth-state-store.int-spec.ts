import { randomBytes } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { testEnv } from '@mapi/testing';
import { proto } from 'baileys';
import { AuthCipher } from './auth-cipher';
import { BaileysAuthStore } from './auth-state-store';

/** The auth state against real Postgres: a second replica (another store instance) resumes it. */
describe('BaileysAuthStore (integration)', () => {
  let prisma: PrismaClient;
  const key = randomBytes(32);
  const phoneId = `phone-auth${randomBytes(6).toString('hex')}`;
  const other = `phone-auth${randomBytes(6).toString('hex')}`;

  beforeAll(() => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
  });
  afterAll(async () => {
    await prisma.baileysAuth.deleteMany({ where: { phone_id: { in: [phoneId, other] } } });
    await prisma.$disconnect();
  });

  it('keeps creds and keys encrypted, and another replica reads them back', async () => {
    const first = new BaileysAuthStore(prisma, new AuthCipher(key));
    const { state, saveCreds } = await first.load(phoneId);
    expect(state.creds.registered).toBe(false);
    state.creds.registered = true;
    state.creds.me = { id: '15550001111:3@s.whatsapp.net', name: 'Desk' };
    await saveCreds();
    const session = new Uint8Array([1, 2, 3, 250]);
    await state.keys.set({ session: { 'a.0': session }, 'app-state-sync-key': { k1: { keyData: new Uint8Array([7, 7]), timestamp: 5 } } });

    const raw = await prisma.baileysAuth.findMany({ where: { phone_id: phoneId } });
    expect(raw.map((r) => r.kind).sort()).toEqual(['app-state-sync-key', 'creds', 'session']);
    for (const r of raw) expect(Buffer.from(r.value).toString('latin1')).not.toContain('15550001111');

    const second = new BaileysAuthStore(prisma, new AuthCipher(key));
    const resumed = await second.load(phoneId);
    expect(resumed.state.creds.me?.id).toBe('15550001111:3@s.whatsapp.net');
    expect(Buffer.from(resumed.state.creds.noiseKey.private)).toEqual(Buffer.from(state.creds.noiseKey.private));
    expect(await second.isRegistered(phoneId)).toBe(true);
    const got = await resumed.state.keys.get('session', ['a.0', 'missing']);
    expect(Buffer.from(got['a.0'])).toEqual(Buffer.from(session));
    expect(got.missing).toBeUndefined();
    const sync = await resumed.state.keys.get('app-state-sync-key', ['k1']);
    expect(sync.k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
  });

  it('deletes keys set to null, and clear() forgets the pairing of that phone only', async () => {
    const store = new BaileysAuthStore(prisma, new AuthCipher(key));
    const { state, saveCreds } = await store.load(other);
    await saveCreds();
    await state.keys.set({ 'pre-key': { '1': { public: new Uint8Array([1]), private: new Uint8Array([2]) } } });
    await state.keys.set({ 'pre-key': { '1': null } });
    expect(await state.keys.get('pre-key', ['1'])).toEqual({});
    await store.clear(other);
    expect(await prisma.baileysAuth.count({ where: { phone_id: other } })).toBe(0);
    expect(await prisma.baileysAuth.count({ where: { phone_id: phoneId } })).toBeGreaterThan(0);
    expect(await store.isRegistered(other)).toBe(false);
  });

  it('refuses rows under another key (a wrong BAILEYS_AUTH_KEY fails loudly, never silently re-pairs)', async () => {
    await expect(new BaileysAuthStore(prisma, new AuthCipher(randomBytes(32))).load(phoneId)).rejects.toThrow();
  });
});
