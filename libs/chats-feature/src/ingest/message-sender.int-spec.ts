import { randomUUID } from 'node:crypto';
import { ReadyJson, type IngestMessage, type RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { MessageRefRepository } from '../repositories/message-ref-repository';
import { MessageRepository } from '../repositories/message-repository';
import { GetMessage } from '../usecases/get-message/get-message.usecase';
import { ListChatMessages } from '../usecases/list-chat-messages/list-chat-messages.usecase';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('ingest_message_sender');

/**
 * Who sent a message (performed_by, docs/services/chats.md) on the chats service's part of the send path: the phone's
 * session stamps it on the report of a message it sent; ingestion stores it, `message.created` carries it in the whole
 * message, and the GET routes answer it. A later copy of the message without it (a resync) takes nothing away.
 */
describe('the sender of a sent message, from ingestion to the routes', () => {
  it('stores performed_by, carries it in message.created, answers it, and keeps it against a later copy', async () => {
    const org = await createOrg(t.prisma);
    const other = await createOrg(t.prisma);
    const row = await createPhone(t.prisma, org.id);
    const p = { org_id: org.id, phone_id: row.phone_id, org_phone: row.org_phone as string };
    const chat = `${randomDigits()}@c.us`;
    const tokenId = randomUUID();
    const at = (s: number) => new Date(1_700_000_000_000 + s * 1000).toISOString();
    const sent = (unique: string, s: number, performedBy?: string): IngestMessage => ({
      chat_id: chat,
      unique_id: unique,
      from_me: true,
      sender_phone: p.org_phone,
      body: `sent ${unique}`,
      message_type: 'chat',
      timestamp: at(s),
      ack: 1,
      sent_message_id: randomUUID(),
      ...(performedBy ? { performed_by: performedBy } : {}),
    });
    const byAna = sent('S1', 2, 'ana@example.com');
    const byToken = sent('S2', 3, tokenId);
    const typed: IngestMessage = { ...sent('S3', 4), sent_message_id: null };
    const received: IngestMessage = { ...typed, unique_id: 'R1', from_me: false, sender_phone: chat, timestamp: at(1) };
    const ingest = new ApplyIngest(t.prisma);
    await ingest.execute([{ ...p, kind: 'messages-upsert', type: 'notify', messages: [received, byAna, byToken, typed] }]);
    // the same message again without its sender (a history sync, a redelivery from another path): it stays
    await ingest.execute([{ ...p, kind: 'messages-upsert', type: 'append', messages: [{ ...byAna, performed_by: null }] }]);

    const stored = await t.prisma.message.findMany({ where: { phone_id: p.phone_id }, select: { unique_id: true, performed_by: true } });
    const expected = { R1: null, S1: 'ana@example.com', S2: tokenId, S3: null };
    expect(Object.fromEntries(stored.map((m) => [m.unique_id, m.performed_by]))).toEqual(expected);

    // the event's payload is the webhook's `data` and realtime's message as they are delivered (event-payloads.int-spec)
    const events = await t.prisma.outboxEvent.findMany({ where: { org_id: org.id, type: 'message.created' } });
    expect(events).toHaveLength(4);
    for (const e of events) expect(() => registryPayload({ type: e.type, payload: e.payload })).not.toThrow();
    const carried = events.map((e) => e.payload as { unique_id: string; performed_by: string | null });
    expect(Object.fromEntries(carried.map((m) => [m.unique_id, m.performed_by]))).toEqual(expected);

    const ctx: RequestContext = { org_id: org.id, token_id: randomUUID(), phone_scope: null, phone: null };
    const get = new GetMessage(new MessageRefRepository(t.prisma));
    expect(await get.execute({ ctx, params: { message_id: `true_${chat}_S1` } })).toMatchObject({ performed_by: 'ana@example.com' });
    // by its queue id (the send's sent_message_id), as the public client's getById reads a sent message
    expect(await get.execute({ ctx, params: { message_id: byToken.sent_message_id as string } })).toMatchObject({ performed_by: tokenId });
    const list = new ListChatMessages(new MessageRepository(t.prisma));
    for (const limit of [10, 200]) {
      // a small page is mapped from rows, a large one built in SQL: both name the sender
      const page = await list.execute({ ctx, params: { chat_id: chat }, query: { offset: 0, limit } } as never);
      const messages = (page instanceof ReadyJson ? page.parse() : page).messages;
      expect(Object.fromEntries(messages.map((m) => [m.unique_id, m.performed_by]))).toEqual(expected);
    }
    // another organization reads none of it
    const theirs: RequestContext = { ...ctx, org_id: other.id };
    await expect(get.execute({ ctx: theirs, params: { message_id: `true_${chat}_S1` } })).rejects.toMatchObject({ status: 404 });
  });
});
