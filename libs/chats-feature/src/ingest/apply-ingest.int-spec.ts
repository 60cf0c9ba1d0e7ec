import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, useTestDatabase } from '@mapi/testing';
import { mapMessage } from '../messages/map-message';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('apply_ingest');
type Phone = { org_id: string; phone_id: string; org_phone: string };
let seq = 0;

function msg(chatId: string, overrides: Partial<IngestMessage> = {}): IngestMessage {
  seq += 1;
  return {
    chat_id: chatId,
    unique_id: `U${seq}`,
    from_me: false,
    sender_phone: chatId,
    body: `hello ${seq}`,
    message_type: 'chat',
    timestamp: new Date(1_700_000_000_000 + seq * 1000).toISOString(),
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
const chat = () => `${randomDigits()}@c.us`;

async function newPhone(): Promise<Phone> {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  return { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
}
async function outbox(orgId: string) {
  const rows = await t.prisma.outboxEvent.findMany({ where: { org_id: orgId }, orderBy: { seq: 'asc' } });
  return rows.map((r) => ({ type: r.type, phone_id: r.phone_id, data: r.payload as Record<string, unknown> }));
}

describe('ApplyIngest', () => {
  it('stores a run of upserts of several phones at once, with one chat.created per new chat and one message.created per new message', async () => {
    const [a, b] = [await newPhone(), await newPhone()];
    const [c1, c2] = [chat(), chat()];
    const events = [upsert(a, [msg(c1), msg(c1)]), upsert(b, [msg(c1)]), upsert(a, [msg(c2)])];
    await new ApplyIngest(t.prisma).execute(events);

    expect(await t.prisma.message.count({ where: { phone_id: a.phone_id } })).toBe(3);
    expect(await t.prisma.message.count({ where: { phone_id: b.phone_id } })).toBe(1);
    expect(await t.prisma.chat.count({ where: { phone_id: { in: [a.phone_id, b.phone_id] } } })).toBe(3);
    const outA = await outbox(a.org_id);
    expect(
      outA
        .filter((e) => e.type === 'chat.created')
        .map((e) => e.data.chat_id)
        .sort(),
    ).toEqual([c1, c2].sort());
    const createdA = outA.filter((e) => e.type === 'message.created');
    expect(createdA.map((e) => e.data.unique_id)).toEqual(
      (events[0] as { messages: IngestMessage[] }).messages
        .map((m) => m.unique_id)
        .concat((events[2] as { messages: IngestMessage[] }).messages[0].unique_id),
    );
    expect(createdA.every((e) => e.phone_id === a.phone_id && e.data.org_id === a.org_id)).toBe(true);
    const outB = await outbox(b.org_id);
    expect(outB.map((e) => e.type)).toEqual(['chat.created', 'message.created']);
    expect(outB[1].phone_id).toBe(b.phone_id);
  });

  it('emits the same message object as the stored row maps to (the JSON-returned rows lose nothing)', async () => {
    const p = await newPhone();
    const group = `${randomDigits(18)}@g.us`;
    const m = msg(group, {
      sender_phone: '111@c.us',
      author: '111@c.us',
      mentioned_ids: ['222@c.us'],
      is_forwarded: true,
      quoted_message_id: 'Q1',
      media: { url: 'https://x/y.jpg', mimetype: 'image/jpeg', filename: 'y.jpg', size: 10 } as never,
      body: 'Ünïcode "quoted" \\ text',
    });
    await new ApplyIngest(t.prisma).execute([upsert(p, [m])]);
    await new ApplyIngest(t.prisma).execute([upsert(p, [{ ...m, ack: 3 }])]);
    const stored = await t.prisma.message.findFirstOrThrow({
      where: { phone_id: p.phone_id, unique_id: m.unique_id },
      omit: { id: true, phone_id: true },
    });
    expect(stored).toMatchObject({ quoted_message_id: 'Q1', has_quoted_msg: true, has_media: true });
    const out = (await outbox(p.org_id)).filter((e) => e.type.startsWith('message.'));
    expect(out.map((e) => e.type)).toEqual(['message.created', 'message.ack.updated']);
    expect(out[1].data).toEqual(JSON.parse(JSON.stringify(mapMessage(stored))));
    expect(out[0].data).toEqual({ ...(out[1].data as object), ack: '1', updated_at: out[0].data.updated_at });
  });

  it('changes and emits nothing when the same batch is applied again', async () => {
    const p = await newPhone();
    const events = [upsert(p, [msg(chat()), msg(chat())])];
    await new ApplyIngest(t.prisma).execute(events);
    const before = await outbox(p.org_id);
    await new ApplyIngest(t.prisma).execute(events);
    expect(await outbox(p.org_id)).toEqual(before);
    expect(await t.prisma.message.count({ where: { phone_id: p.phone_id } })).toBe(2);
    expect(await t.prisma.message.count({ where: { phone_id: p.phone_id, has_quoted_msg: null } })).toBe(2);
  });

  it('raises the ack of a re-read message (also within one batch) and never lowers it', async () => {
    const p = await newPhone();
    const c = chat();
    const m = msg(c, { ack: 1 });
    await new ApplyIngest(t.prisma).execute([upsert(p, [m]), upsert(p, [{ ...m, ack: 3 }])]);
    let row = await t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id, unique_id: m.unique_id } });
    expect(row.ack).toBe(3);
    expect(row.delivery_info).toEqual({ delivered_count: 1, read_count: 1, pending: [] });
    const out = await outbox(p.org_id);
    expect(out.map((e) => e.type)).toEqual(['chat.created', 'message.created', 'message.ack.updated']);
    expect(out[2].data.ack).toBe('3');

    await new ApplyIngest(t.prisma).execute([upsert(p, [{ ...m, ack: 2 }]), upsert(p, [{ ...m, ack: -1 }])]);
    row = await t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id, unique_id: m.unique_id } });
    expect(row.ack).toBe(3);
    expect(await outbox(p.org_id)).toHaveLength(3);
  });

  it('marks a message failed (-1) only below delivered, and keeps a group message receipt maps', async () => {
    const p = await newPhone();
    const single = msg(chat(), { ack: 1, from_me: true });
    const group = msg(`${randomDigits(18)}@g.us`, { ack: 1, from_me: true });
    await new ApplyIngest(t.prisma).execute([upsert(p, [single, group])]);
    await new ApplyIngest(t.prisma).execute([
      { ...p, kind: 'receipt', chat_id: group.chat_id, unique_id: group.unique_id, from_me: true, ack: 3, participant: '111@c.us', at: 5 },
    ]);
    await new ApplyIngest(t.prisma).execute([
      upsert(p, [
        { ...single, ack: -1 },
        { ...group, ack: 4 },
      ]),
    ]);
    const rows = await t.prisma.message.findMany({ where: { phone_id: p.phone_id }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.ack)).toEqual([-1, 4]);
    expect(rows[0].delivery_info).toEqual({ delivered_count: 0, read_count: 0, pending: [] });
    expect(rows[1].delivery_info).toEqual({
      delivered_count: 1,
      read_count: 1,
      pending: [],
      delivered: { '111@c.us': 5 },
      read: { '111@c.us': 5 },
    });
  });

  it('emits no message.created for history (append), and applies events in order around a run of upserts', async () => {
    const p = await newPhone();
    const c = chat();
    const m = msg(c);
    await new ApplyIngest(t.prisma).execute([
      { ...p, kind: 'chats-upsert', chats: [{ chat_id: c, chat_name: 'Alice', chat_type: 'user' }] },
      upsert(p, [m], 'append'),
      { ...p, kind: 'edit', chat_id: c, unique_id: m.unique_id, from_me: false, body: 'edited' },
      { ...p, kind: 'chats-upsert', chats: [{ chat_id: c, chat_name: 'Alice B.', chat_type: 'user' }] },
    ]);
    const row = await t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id, unique_id: m.unique_id } });
    expect([row.body, row.prev_body]).toEqual(['edited', m.body]);
    expect((await t.prisma.chat.findFirstOrThrow({ where: { phone_id: p.phone_id, chat_id: c } })).chat_name).toBe('Alice B.');
    expect((await outbox(p.org_id)).map((e) => e.type)).toEqual(['chat.created', 'message.updated']);
  });

  it('names a chat first seen through a message when the connector later reports its name', async () => {
    const p = await newPhone();
    const c = chat();
    await new ApplyIngest(t.prisma).execute([upsert(p, [msg(c)])]);
    await new ApplyIngest(t.prisma).execute([{ ...p, kind: 'chats-upsert', chats: [{ chat_id: c, chat_name: 'Bob', chat_type: 'user' }] }]);
    expect((await t.prisma.chat.findFirstOrThrow({ where: { phone_id: p.phone_id, chat_id: c } })).chat_name).toBe('Bob');
  });

  it('rolls the whole batch back when one statement fails (nothing half-written)', async () => {
    const p = await newPhone();
    const good = upsert(p, [msg(chat())]);
    const bad = { ...p, org_id: 'not-a-uuid', kind: 'messages-upsert', type: 'notify', messages: [msg(chat())] } as IngestEvent;
    await expect(new ApplyIngest(t.prisma).execute([good, bad])).rejects.toThrow();
    expect(await t.prisma.message.count({ where: { phone_id: p.phone_id } })).toBe(0);
    expect(await outbox(p.org_id)).toEqual([]);
  });
});
