import { randomBytes, randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { testEnv } from '@mapi/testing';
import { DisconnectReason, type WAMessage } from 'baileys';
import { setup, tick } from './fixtures/connector-harness';
import * as f from './fixtures/library-events';
import { PrismaSessionStateStore } from './session-state-store';

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await tick();
  if (!done()) throw new Error('timed out');
}

/** LID map and history anchors in real Postgres: what a session learned survives a lease takeover. */
describe('Baileys session state (integration)', () => {
  let prisma: PrismaClient;
  let store: PrismaSessionStateStore;
  const org = randomUUID();
  const otherOrg = randomUUID();
  const phoneId = `phone-state${randomBytes(6).toString('hex')}`;

  beforeAll(() => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    store = new PrismaSessionStateStore(prisma);
  });
  afterAll(async () => {
    await prisma.baileysLid.deleteMany({ where: { org_id: { in: [org, otherOrg] } } });
    await prisma.baileysHistoryAnchor.deleteMany({ where: { org_id: { in: [org, otherOrg] } } });
    await prisma.$disconnect();
  });

  const bound = (orgId: string, phone: string) => ({
    load: () => store.load(orgId, phone),
    saveLids: (pairs: readonly { lid: string; pn: string }[]) => store.saveLids(orgId, phone, pairs),
    saveAnchors: (anchors: Parameters<PrismaSessionStateStore['saveAnchors']>[2]) => store.saveAnchors(orgId, phone, anchors),
    clear: () => store.clear(orgId, phone),
  });

  it('store: per organization and phone; an anchor only moves back in time; a LID’s number can change', async () => {
    const phone = `phone-store${randomBytes(6).toString('hex')}`;
    const key = (id: string) => ({ remoteJid: f.GROUP, id, fromMe: false, participant: f.BOB_PN });
    await store.saveLids(org, phone, [
      { lid: f.BOB_LID, pn: f.BOB_PN },
      { lid: '1234@lid', pn: '15550000009@s.whatsapp.net' },
    ]);
    await store.saveLids(org, phone, [{ lid: '1234@lid', pn: '15550000010@s.whatsapp.net' }]);
    await store.saveAnchors(org, phone, [{ chat_id: f.GROUP, key: key('B'), ms: 1_767_225_600_123 }]);
    await store.saveAnchors(org, phone, [{ chat_id: f.GROUP, key: key('LATER'), ms: 1_767_225_700_000 }]);
    await store.saveAnchors(org, phone, [
      { chat_id: f.GROUP, key: key('A'), ms: 1_767_225_500_456 },
      { chat_id: '15550000002@c.us', key: { remoteJid: f.ALICE, id: 'C', fromMe: true }, ms: 1_767_225_000_000 },
    ]);

    const state = await store.load(org, phone);
    expect(state.lids.sort((a, b) => a.lid.localeCompare(b.lid))).toEqual([
      { lid: '1234@lid', pn: '15550000010@s.whatsapp.net' },
      { lid: f.BOB_LID, pn: f.BOB_PN },
    ]);
    expect(state.anchors.sort((a, b) => a.chat_id.localeCompare(b.chat_id))).toEqual([
      { chat_id: f.GROUP, key: key('A'), ms: 1_767_225_500_456 },
      { chat_id: '15550000002@c.us', key: { remoteJid: f.ALICE, id: 'C', fromMe: true }, ms: 1_767_225_000_000 },
    ]);
    expect(await store.load(otherOrg, phone)).toEqual({ lids: [], anchors: [] });

    await store.saveLids(otherOrg, phone, [{ lid: f.BOB_LID, pn: f.BOB_PN }]);
    await store.clear(org, phone);
    expect(await store.load(org, phone)).toEqual({ lids: [], anchors: [] });
    expect((await store.load(otherOrg, phone)).lids).toHaveLength(1);
  });

  it('a LID map that failed to save is saved with the next event, not lost', async () => {
    let failNext = true;
    const real = bound(org, phoneId);
    const flaky = {
      ...real,
      saveLids: async (pairs: readonly { lid: string; pn: string }[]) => {
        if (failNext) {
          failNext = false;
          throw new Error('database unavailable');
        }
        return real.saveLids(pairs);
      },
    };
    await store.clear(org, phoneId);
    const c = setup({ phoneId, deps: { state: flaky } });
    await c.open();
    c.sock().emit('contacts.upsert', [{ id: f.BOB_PN, lid: f.BOB_LID }]); // its save fails
    await until(() => !failNext);
    expect((await store.load(org, phoneId)).lids).toEqual([]);
    c.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' }); // the next event saves it
    let lids: { lid: string; pn: string }[] = [];
    for (let i = 0; i < 100 && !lids.length; i++) {
      await new Promise((r) => setTimeout(r, 20));
      lids = (await store.load(org, phoneId)).lids;
    }
    expect(lids).toEqual([{ lid: f.BOB_LID, pn: f.BOB_PN }]);
    await c.connector.disconnect();
    await store.clear(org, phoneId);
  });

  it('a second connector for the phone (after a takeover) resolves LIDs and fetches history from the persisted anchor', async () => {
    const first = setup({ phoneId, deps: { state: bound(org, phoneId) } });
    await first.open();
    first.sock().emit('contacts.upsert', [{ id: f.BOB_PN, lid: f.BOB_LID }]);
    first.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    const older: WAMessage = { ...f.textFromAlice, key: { ...f.textFromAlice.key, id: 'OLDEST' }, messageTimestamp: 1_767_200_000 };
    first.sock().emit('messaging-history.set', { ...f.historySet, contacts: [], messages: [older] });
    await until(() => first.of('messages.upsert').length === 2);
    await first.connector.disconnect(); // the lease moves to another replica

    const second = setup({ phoneId, deps: { state: bound(org, phoneId) } });
    await second.open();
    second.sock().emit('messages.upsert', {
      messages: [{ ...f.extendedReplyInGroup, key: { ...f.extendedReplyInGroup.key, id: 'AFTER1' } }],
      type: 'notify',
    });
    await until(() => second.of('messages.upsert').length === 1);
    expect(second.of('messages.upsert')[0].messages[0]).toMatchObject({
      unique_id: 'AFTER1',
      sender_phone: '15550000003@c.us',
      author: '15550000003@c.us',
    });

    const pending = second.connector.fetchMessageHistory('15550000002@c.us', 10);
    await until(() => second.sock().historyRequests.length === 1);
    expect(second.sock().historyRequests[0]).toEqual({
      count: 10,
      key: { remoteJid: f.ALICE, id: 'OLDEST', fromMe: false },
      ms: 1_767_200_000_000,
    });
    await pending;

    // Another organization's phone with the same id learns nothing from it.
    const stranger = setup({ phoneId, deps: { state: bound(otherOrg, phoneId) } });
    await stranger.open();
    stranger.sock().emit('messages.upsert', { messages: [f.extendedReplyInGroup], type: 'notify' });
    await until(() => stranger.of('messages.upsert').length === 1);
    expect(stranger.of('messages.upsert')[0].messages[0].sender_phone).toBe('99887766554433@lid');
    await stranger.connector.disconnect();

    // A logout forgets it (the next pairing may be another account).
    second.sock().close(DisconnectReason.loggedOut);
    await until(() => second.of('connection.update').some((u) => u.state === 'LOGGED_OUT'));
    expect(await store.load(org, phoneId)).toEqual({ lids: [], anchors: [] });

    // The same connector, paired again (the session manager reconnects it), knows nothing of the old account.
    await second.open();
    second.sock().emit('messages.upsert', {
      messages: [{ ...f.extendedReplyInGroup, key: { ...f.extendedReplyInGroup.key, id: 'AFTER2' } }],
      type: 'notify',
    });
    await until(() => second.of('messages.upsert').length === 2);
    expect(second.of('messages.upsert')[1].messages[0].sender_phone).toBe('99887766554433@lid');
    const fetched = second.connector.fetchMessageHistory('15550000002@c.us', 10);
    await expect(fetched).resolves.toEqual([]); // no anchor left: nothing to ask the phone for
    expect(second.sock().historyRequests).toHaveLength(0);
    await second.connector.disconnect();
  });
});
