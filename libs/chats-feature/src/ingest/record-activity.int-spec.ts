import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatViewRepository } from '../repositories/chat-view-repository';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('record_activity');
type Phone = { org_id: string; phone_id: string; org_phone: string };
let seq = 0;

function msg(chatId: string, at: number, overrides: Partial<IngestMessage> = {}): IngestMessage {
  seq += 1;
  return {
    chat_id: chatId,
    unique_id: `A${seq}`,
    from_me: false,
    sender_phone: chatId,
    body: `hi ${seq}`,
    message_type: 'chat',
    timestamp: new Date(at).toISOString(),
    ack: 1,
    ...overrides,
  };
}
const upsert = (p: Phone, messages: IngestMessage[], type: 'notify' | 'append' = 'notify'): IngestEvent => ({
  ...p,
  kind: 'messages-upsert',
  type,
  messages,
});

/** Ingestion keeps each chat's listing state (latest message, activity, unread count, number) on its row. */
describe('chat activity from ingestion', () => {
  it('records the newest message, counts live inbound messages, and restarts the count when the phone sends', async () => {
    const org = await createOrg(t.prisma);
    const ph = await createPhone(t.prisma, org.id);
    const p: Phone = { org_id: org.id, phone_id: ph.phone_id, org_phone: ph.org_phone as string };
    const chat = `${randomDigits()}@c.us`;
    const ingest = new ApplyIngest(t.prisma);
    const repo = new ChatViewRepository(t.prisma);
    const base = Date.UTC(2026, 0, 1);

    await ingest.execute([upsert(p, [msg(chat, base + 1000), msg(chat, base + 3000)])]);
    let [row] = await repo.list(org.id, { phoneIds: null, offset: 0, limit: 10 });
    expect(row).toMatchObject({
      chat_id: chat,
      org_phone: p.org_phone,
      latest_message_at: new Date(base + 3000),
      activity_at: new Date(base + 3000),
    });
    expect(row.copies).toEqual([
      {
        phone_id: p.phone_id,
        org_phone: p.org_phone,
        unread_count: 2,
        latest_message_at: new Date(base + 3000),
        pinned_messages: null,
        member_unread: null,
      },
    ]);

    // an older message (history) moves nothing; a redelivered batch changes nothing
    await ingest.execute([upsert(p, [msg(chat, base + 2000)], 'append')]);
    await ingest.execute([upsert(p, [msg(chat, base + 3000, { unique_id: `A${seq}` })])]);
    [row] = await repo.list(org.id, { phoneIds: null, offset: 0, limit: 10 });
    expect(row.copies[0]).toMatchObject({ unread_count: 2, latest_message_at: new Date(base + 3000) });
    const latest = await t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id, timestamp: new Date(base + 3000) } });
    expect(row.latest_message_id).toBe(String(latest.id));

    // the phone replies: read; then one more inbound message
    await ingest.execute([upsert(p, [msg(chat, base + 4000, { from_me: true, sender_phone: p.org_phone }), msg(chat, base + 5000)])]);
    [row] = await repo.list(org.id, { phoneIds: null, offset: 0, limit: 10 });
    expect(row.copies[0]).toMatchObject({ unread_count: 1, latest_message_at: new Date(base + 5000) });
  });
});
