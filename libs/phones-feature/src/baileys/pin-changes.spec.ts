import type { WAMessage } from 'baileys';
import * as f from './fixtures/library-events';
import { setup, tick } from './fixtures/connector-harness';
import { LidMap } from './lid-map';
import { PIN_SECONDS } from './message-actions';
import { toPinChange, toPinChanges } from './pin-changes';

const ctx = () => {
  const lids = new LidMap();
  lids.learn(f.BOB_LID, f.BOB_PN);
  return { me: f.ME, lids };
};
const AT = Date.parse('2026-01-01T00:01:00.000Z');

/** A pinInChatMessage as the library delivers it in messages.upsert (the sender's view of the pinned message's key). */
const pinMessage = (
  key: WAMessage['key'],
  target: { id: string; fromMe: boolean; remoteJid: string; participant?: string },
  type: 1 | 2,
  seconds: number | null = 86_400,
): WAMessage =>
  ({
    key: { id: `PIN${target.id}`, ...key },
    messageTimestamp: AT / 1000,
    message: {
      pinInChatMessage: { key: target, type, senderTimestampMs: AT },
      ...(seconds === null ? {} : { messageContextInfo: { messageAddOnDurationInSecs: type === 1 ? seconds : 0 } }),
    },
  }) as unknown as WAMessage;

describe('Baileys mapping: pins (pin-changes.ts)', () => {
  it("this phone's own pin (the echo of POST /message/{id}/pin): the message as it knows it, until the duration it carries", () => {
    const m = pinMessage({ remoteJid: f.ALICE, fromMe: true }, { id: 'M1', fromMe: false, remoteJid: f.ALICE }, 1);
    expect(toPinChange(m, ctx())).toEqual({
      chat_id: '15550000002@c.us',
      unique_id: 'M1',
      from_me: false,
      pin: { pinned: true, at: '2026-01-01T00:01:00.000Z', expires_at: '2026-01-02T00:01:00.000Z' },
    });
  });

  it("another person's pin, 1:1: their own message is not ours; one they saw as not theirs is ours", () => {
    const theirs = pinMessage({ remoteJid: f.ALICE, fromMe: false }, { id: 'M2', fromMe: true, remoteJid: `${f.ME}@s.whatsapp.net` }, 1);
    const ours = pinMessage({ remoteJid: f.ALICE, fromMe: false }, { id: 'M3', fromMe: false, remoteJid: `${f.ME}@s.whatsapp.net` }, 1);
    expect(toPinChange(theirs, ctx())).toMatchObject({ chat_id: '15550000002@c.us', unique_id: 'M2', from_me: false });
    expect(toPinChange(ours, ctx())).toMatchObject({ chat_id: '15550000002@c.us', unique_id: 'M3', from_me: true });
  });

  it("another person's pin in a group: ours only when its author is this phone (a LID author by its number)", () => {
    const by = { remoteJid: f.GROUP, fromMe: false, participant: f.ALICE };
    const ours = pinMessage(by, { id: 'G1', fromMe: false, remoteJid: f.GROUP, participant: `${f.ME}@s.whatsapp.net` }, 1);
    const bobs = pinMessage(by, { id: 'G2', fromMe: false, remoteJid: f.GROUP, participant: f.BOB_LID }, 1);
    expect(toPinChange(ours, ctx())).toMatchObject({ chat_id: f.GROUP, unique_id: 'G1', from_me: true });
    expect(toPinChange(bobs, ctx())).toMatchObject({ chat_id: f.GROUP, unique_id: 'G2', from_me: false });
  });

  it("an unpin has no expiry; a pin without a duration lasts the network's default", () => {
    const unpin = pinMessage({ remoteJid: f.ALICE, fromMe: true }, { id: 'M1', fromMe: false, remoteJid: f.ALICE }, 2);
    expect(toPinChange(unpin, ctx())?.pin).toEqual({ pinned: false, at: '2026-01-01T00:01:00.000Z', expires_at: null });
    const bare = pinMessage({ remoteJid: f.ALICE, fromMe: true }, { id: 'M1', fromMe: false, remoteJid: f.ALICE }, 1, null);
    expect(toPinChange(bare, ctx())?.pin?.expires_at).toBe(new Date(AT + PIN_SECONDS * 1000).toISOString());
  });

  it('anything else is no pin: other messages, a pin without a target or of an unknown type', () => {
    const noTarget = {
      key: { id: 'X', remoteJid: f.ALICE, fromMe: true },
      message: { pinInChatMessage: { type: 1 } },
    } as unknown as WAMessage;
    const odd = pinMessage({ remoteJid: f.ALICE, fromMe: true }, { id: 'M1', fromMe: false, remoteJid: f.ALICE }, 3 as 1);
    expect(toPinChanges([f.textFromAlice, noTarget, odd], ctx())).toEqual([]);
  });

  it('the connector hands a pin on as messages.update, and stores no message for it', async () => {
    const t = setup();
    await t.open();
    const m = pinMessage({ remoteJid: f.ALICE, fromMe: true }, { id: 'M1', fromMe: false, remoteJid: f.ALICE }, 1);
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice, m], type: 'notify' });
    await tick();
    expect(t.of('messages.upsert').flatMap((u) => u.messages.map((x) => x.unique_id))).toEqual([f.textFromAlice.key.id]);
    expect(t.of('messages.update')).toEqual([
      [
        expect.objectContaining({
          chat_id: '15550000002@c.us',
          unique_id: 'M1',
          from_me: false,
          pin: expect.objectContaining({ pinned: true }),
        }),
      ],
    ]);
  });
});
