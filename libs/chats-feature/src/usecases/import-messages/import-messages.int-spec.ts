import type { IngestEvent, IngestMessage, Message, RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, randomDigits, useTestDatabase } from '@mapi/testing';
import { ApplyIngest } from '../../ingest/apply-ingest.usecase';
import { mapMessage } from '../../messages/map-message';
import { ImportMessages } from './import-messages.usecase';

const t = useTestDatabase('import_messages');
type Phone = { org_id: string; phone_id: string; org_phone: string };
let seq = 0;

function msg(chatId: string, overrides: Partial<IngestMessage> = {}): IngestMessage {
  seq += 1;
  return {
    chat_id: chatId,
    unique_id: `IMP${seq}`,
    from_me: false,
    sender_phone: chatId,
    sender_name: 'Ann',
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
const ctx = (orgId: string): RequestContext => ({ org_id: orgId, token_id: newUuid(), phone_scope: null, phone: null, member: null });
const person = () => `${randomDigits()}@c.us`;

async function newPhone(orgId?: string): Promise<Phone> {
  const org = orgId ?? (await createOrg(t.prisma)).id;
  const phone = await createPhone(t.prisma, org);
  return { org_id: org, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
}
/** The source's messages as its GET messages answers them (stored by its own ingestion). */
async function sourceObjects(p: Phone): Promise<Message[]> {
  const rows = await t.prisma.message.findMany({
    where: { phone_id: p.phone_id },
    orderBy: { id: 'asc' },
    omit: { id: true, phone_id: true },
  });
  return JSON.parse(JSON.stringify(rows.map(mapMessage))) as Message[];
}
const items = (target: Phone, messages: Message[]) =>
  messages.map((m) => ({ source_id: m.message_id, phone_id: target.phone_id, message: m }));
const run = (target: Phone, list: unknown[]) =>
  new ImportMessages(t.prisma, phoneDirectoryFromDb(t.prisma)).execute({ ctx: ctx(target.org_id), body: { items: list } });
const outbox = (orgId: string) => t.prisma.outboxEvent.findMany({ where: { org_id: orgId } });
const storedObjects = async (p: Phone) => sourceObjects(p);

describe('ImportMessages (chats.v1.import.messages)', () => {
  it('writes every message with its id and every field kept, the chat made and its latest message set, and no events', async () => {
    const source = await newPhone();
    const [c1, group] = [person(), `1203630${randomDigits(11)}@g.us`];
    await new ApplyIngest(t.prisma).execute([
      upsert(source, [msg(c1), msg(c1, { from_me: true, sender_phone: source.org_phone, ack: 3, quoted_message_id: 'Q1' })]),
      upsert(source, [msg(group, { sender_phone: '4915111111111@c.us', mentioned_ids: ['4915122222222@c.us'], is_forwarded: true })]),
    ]);
    const objects = (await sourceObjects(source)).map((m, i) =>
      i === 0
        ? {
            ...m,
            prev_body: 'before',
            body: 'after',
            message_ticket_id: 'T-1',
            flag_status: true,
            is_starred: true,
            poll_info: { q: 1 },
            vcards: ['BEGIN:VCARD'],
          }
        : m,
    );
    const target = await newPhone();
    const answer = await run(target, items(target, objects));

    expect(answer.results).toEqual(objects.map((m) => ({ source_id: m.message_id, target_id: m.message_id, outcome: 'created' })));
    const stored = await storedObjects(target);
    expect(stored).toEqual(
      objects.map((m) => ({
        ...m,
        org_id: target.org_id,
        org_phone: target.org_phone,
        fts: m.body
          ? m.body
              .toLowerCase()
              .match(/[\p{L}\p{N}]+/gu)
              ?.join(' ')
          : null,
      })),
    );
    const chats = await t.prisma.chat.findMany({ where: { phone_id: target.phone_id }, orderBy: { chat_id: 'asc' } });
    expect(chats.map((c) => [c.chat_id, c.chat_type, c.unread_count, c.latest_message_at?.toISOString()])).toEqual(
      [
        [c1, 'user', 0, objects[1].timestamp.replace('+00:00', '.000Z')],
        [group, 'group', 0, objects[2].timestamp.replace('+00:00', '.000Z')],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    expect(await outbox(target.org_id)).toEqual([]);
    expect(await t.prisma.contact.findUnique({ where: { org_id_contact_id: { org_id: target.org_id, contact_id: c1 } } })).toMatchObject({
      phone_ids: [target.phone_id],
    });
  });

  it('answers skipped for a second identical batch and writes nothing; a changed message is updated', async () => {
    const source = await newPhone();
    const c = person();
    await new ApplyIngest(t.prisma).execute([upsert(source, [msg(c), msg(c)])]);
    const objects = await sourceObjects(source);
    const target = await newPhone();
    await run(target, items(target, objects));
    const before = await t.prisma.message.findMany({ where: { phone_id: target.phone_id }, orderBy: { id: 'asc' } });

    expect((await run(target, items(target, objects))).results.map((r) => r.outcome)).toEqual(['skipped', 'skipped']);
    expect(await t.prisma.message.findMany({ where: { phone_id: target.phone_id }, orderBy: { id: 'asc' } })).toEqual(before);

    const changed = [
      { ...objects[0], body: 'edited', prev_body: objects[0].body, updated_at: '2030-01-01T00:00:00.000+00:00' },
      { ...objects[1], is_deleted: true },
    ];
    expect((await run(target, items(target, changed))).results.map((r) => r.outcome)).toEqual(['updated', 'updated']);
    const after = await storedObjects(target);
    expect(after.map((m) => [m.body, m.prev_body, m.is_deleted, m.fts])).toEqual([
      ['edited', objects[0].body, null, 'edited'],
      [objects[1].body, null, true, objects[1].fts],
    ]);
    expect(await t.prisma.message.count({ where: { phone_id: target.phone_id } })).toBe(2);
  });

  it('answers a bad item and a phone of another organization failed, with why, while the rest lands; the other organization is untouched', async () => {
    const source = await newPhone();
    const c = person();
    await new ApplyIngest(t.prisma).execute([upsert(source, [msg(c), msg(c)])]);
    const [good, other] = await sourceObjects(source);
    const target = await newPhone();
    const foreign = await newPhone();
    const foreignBefore = await t.prisma.message.findMany({ where: { org_id: foreign.org_id } });
    const { timestamp: _ts, ...noTimestamp } = other;
    const answer = await run(target, [
      { source_id: 'bad-1', phone_id: target.phone_id, message: noTimestamp },
      { source_id: good.message_id, phone_id: target.phone_id, message: good },
      { source_id: other.message_id, phone_id: foreign.phone_id, message: other },
      'not an object',
    ]);
    expect(answer.results).toEqual([
      { source_id: 'bad-1', target_id: null, outcome: 'failed', reason: expect.stringMatching(/^message\.timestamp: /) },
      { source_id: good.message_id, target_id: good.message_id, outcome: 'created' },
      {
        source_id: other.message_id,
        target_id: null,
        outcome: 'failed',
        reason: `phone ${foreign.phone_id} is not a phone of this organization`,
      },
      { source_id: '', target_id: null, outcome: 'failed', reason: expect.any(String) },
    ]);
    expect(await t.prisma.message.count({ where: { phone_id: target.phone_id } })).toBe(1);
    expect(await t.prisma.message.findMany({ where: { org_id: foreign.org_id } })).toEqual(foreignBefore);
    expect(await t.prisma.chat.count({ where: { org_id: foreign.org_id } })).toBe(0);
  });

  it('answers an item the database refuses (a NUL character) failed with its reason, and writes the rest of the batch', async () => {
    const source = await newPhone();
    const c = person();
    await new ApplyIngest(t.prisma).execute([upsert(source, [msg(c), msg(c), msg(c)])]);
    const [a, b, d] = await sourceObjects(source);
    const target = await newPhone();
    const answer = await run(target, items(target, [a, { ...b, body: 'nul \u0000 here' }, d]));
    expect(answer.results.map((r) => r.outcome)).toEqual(['created', 'failed', 'created']);
    expect(answer.results[1].reason).toMatch(/^refused by the database: 22/);
    expect(await t.prisma.message.count({ where: { phone_id: target.phone_id } })).toBe(2);
  });

  it("leaves the same message id of another organization's phone as it was (ids are per phone)", async () => {
    const source = await newPhone();
    const c = person();
    await new ApplyIngest(t.prisma).execute([upsert(source, [msg(c)])]);
    const [m] = await sourceObjects(source);
    const target = await newPhone();
    const sourceBefore = await t.prisma.message.findMany({ where: { phone_id: source.phone_id } });
    expect((await run(target, items(target, [{ ...m, body: 'changed here' }]))).results[0].outcome).toBe('created');
    expect(await t.prisma.message.findMany({ where: { phone_id: source.phone_id } })).toEqual(sourceBefore);
  });

  it('is one message with live ingestion, whichever stores it first', async () => {
    const source = await newPhone();
    const c = person();
    const [live1, live2] = [msg(c, { ack: 2 }), msg(c, { ack: 1 })];
    await new ApplyIngest(t.prisma).execute([upsert(source, [live1, live2])]);
    const [o1, o2] = await sourceObjects(source);
    const target = await newPhone();

    // the connector stored live1 before the import reaches it: identical → skipped; an ack the source saw higher → updated
    await new ApplyIngest(t.prisma).execute([upsert(target, [live1])]);
    const [stored1] = await storedObjects(target);
    const answer = await run(target, items(target, [{ ...stored1 }, { ...o1, ack: '3' }]));
    expect(answer.results.map((r) => r.outcome)).toEqual(['skipped', 'skipped']); // the repeat of one message answers as its first
    expect((await run(target, items(target, [{ ...o1, ack: '3' }]))).results[0].outcome).toBe('updated');
    expect((await t.prisma.message.findFirstOrThrow({ where: { phone_id: target.phone_id, message_id: o1.message_id } })).ack).toBe(3);

    // the import stores live2 first: the connector's later copy stores nothing and emits no message.created
    expect((await run(target, items(target, [o2]))).results[0].outcome).toBe('created');
    const eventsBefore = (await outbox(target.org_id)).length;
    await new ApplyIngest(t.prisma).execute([upsert(target, [live2])]);
    expect(await t.prisma.message.count({ where: { phone_id: target.phone_id } })).toBe(2);
    expect((await outbox(target.org_id)).filter((e) => e.type === 'message.created')).toHaveLength(1); // live1's, from the connector
    expect((await outbox(target.org_id)).length).toBe(eventsBefore);
  });
});
