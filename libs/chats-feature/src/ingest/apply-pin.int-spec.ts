import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { ChatViewRepository } from '../repositories/chat-view-repository';
import { mapChatView } from '../chats/map-chat';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('apply_pin');
type Phone = { org_id: string; phone_id: string; org_phone: string };
const DAY = 24 * 3600 * 1000;

async function phoneWithMessage(): Promise<{ p: Phone; m: IngestMessage; id: string }> {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  const p = { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
  const m: IngestMessage = {
    chat_id: `${randomDigits()}@c.us`,
    unique_id: `P${randomDigits(8)}`,
    from_me: false,
    sender_phone: '15550001111@c.us',
    body: 'the address',
    message_type: 'chat',
    timestamp: new Date().toISOString(),
    ack: 1,
  };
  await new ApplyIngest(t.prisma).execute([{ ...p, kind: 'messages-upsert', type: 'notify', messages: [m] }]);
  return { p, m, id: `false_${m.chat_id}_${m.unique_id}` };
}
const pin = (p: Phone, m: IngestMessage, pinned: boolean, at: number, days = 7): IngestEvent => ({
  ...p,
  kind: 'pin',
  chat_id: m.chat_id,
  unique_id: m.unique_id,
  from_me: m.from_me,
  pin: pinned,
  at: new Date(at).toISOString(),
  expires_at: pinned ? new Date(at + days * DAY).toISOString() : null,
});
const updates = async (orgId: string) => {
  const rows = await t.prisma.outboxEvent.findMany({ where: { org_id: orgId, type: 'message.updated' }, orderBy: { seq: 'asc' } });
  rows.forEach(registryPayload); // each is its registry object
  return rows.map((r) => ({
    data: r.payload as Record<string, unknown>,
    previous: r.previous_attributes as Record<string, unknown> | null,
  }));
};
const pinsShown = async (p: Phone, chatId: string) => {
  const row = await new ChatViewRepository(t.prisma).findOne(p.org_id, chatId, [p.phone_id]);
  if (!row) throw new Error(`no chat ${chatId}`);
  return mapChatView(row, null, null).pinned_messages;
};
const stored = (p: Phone, chatId: string) =>
  t.prisma.chat.findUniqueOrThrow({ where: { phone_id_chat_id: { phone_id: p.phone_id, chat_id: chatId } } });

describe('pins (ingest kind pin)', () => {
  it('records a pin on the chat, shows it on the chat object, and emits message.updated once, even when redelivered', async () => {
    const { p, m, id } = await phoneWithMessage();
    const at = Date.now() - 1_000;
    const apply = (e: IngestEvent) => new ApplyIngest(t.prisma).execute([e]);
    await apply(pin(p, m, true, at));
    await apply(pin(p, m, true, at)); // redelivered
    expect(await pinsShown(p, m.chat_id)).toEqual([{ message_id: id, pinned_at: at, expires_at: at + 7 * DAY }]);
    const out = await updates(p.org_id);
    expect(out).toHaveLength(1);
    expect(out[0].data).toMatchObject({ message_id: id, chat_id: m.chat_id, body: 'the address' });
    expect(Object.keys(out[0].previous ?? {})).toEqual(['updated_at']);
    expect(Date.parse(out[0].data.updated_at as string)).toBeGreaterThan(Date.parse(out[0].previous?.updated_at as string));
  });

  it('unpins; a pin older than the unpin (arriving late) does not bring it back; a newer one does', async () => {
    const { p, m, id } = await phoneWithMessage();
    const at = Date.now() - 10_000;
    const apply = (e: IngestEvent) => new ApplyIngest(t.prisma).execute([e]);
    await apply(pin(p, m, true, at));
    await apply(pin(p, m, false, at + 1_000));
    expect(await pinsShown(p, m.chat_id)).toBeNull();
    await apply(pin(p, m, true, at + 500)); // older than the unpin
    expect(await pinsShown(p, m.chat_id)).toBeNull();
    expect(await updates(p.org_id)).toHaveLength(2);
    await apply(pin(p, m, true, at + 2_000, 1));
    expect(await pinsShown(p, m.chat_id)).toEqual([{ message_id: id, pinned_at: at + 2_000, expires_at: at + 2_000 + DAY }]);
    expect((await stored(p, m.chat_id)).pinned_messages).toEqual([
      { message_id: id, at: at + 2_000, pinned: true, expires_at: at + 2_000 + DAY },
    ]);
  });

  it('does not show an expired pin, and drops a pin of a message or chat the phone does not hold', async () => {
    const { p, m } = await phoneWithMessage();
    const apply = (e: IngestEvent) => new ApplyIngest(t.prisma).execute([e]);
    await apply(pin(p, m, true, Date.now() - 8 * DAY));
    expect(await pinsShown(p, m.chat_id)).toBeNull();
    const before = (await updates(p.org_id)).length;
    await apply(pin(p, { ...m, unique_id: 'UNKNOWN' }, true, Date.now()));
    await apply(pin(p, { ...m, chat_id: `${randomDigits()}@c.us` }, true, Date.now()));
    expect(await updates(p.org_id)).toHaveLength(before);
  });
});
