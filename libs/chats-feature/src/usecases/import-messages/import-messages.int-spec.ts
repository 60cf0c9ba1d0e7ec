import type { IngestEvent, IngestMessage, Message, PhoneDirectory } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, useTestDatabase } from '@mapi/testing';
import { ApplyIngest } from '../../ingest/apply-ingest.usecase';
import { ImportMessageRepository } from '../../imports/import-message-repository';
import { mapMessage } from '../../messages/map-message';
import type { MessageRow } from '../../repositories/message-repository';
import { ImportMessages } from './import-messages.usecase';

const t = useTestDatabase('import_messages');
type Phone = { org_id: string; phone_id: string; org_phone: string };
let seq = 0;

/** The phones service's directory, read from the test database (the RPC answers the same). */
const directory: PhoneDirectory = async ({ org_id }) =>
  (await t.prisma.phone.findMany({ where: { org_id } })).map((p) => ({ phone_id: p.phone_id, org_phone: p.org_phone, wa_state: p.wa_state, created_at: p.created_at.toISOString() }));

async function newPhone(): Promise<Phone> {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  return { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
}
const ctx = (orgId: string) => ({ org_id: orgId, token_id: '00000000-0000-4000-8000-000000000001', phone_scope: null, phone: null, member: null });
const live = (chatId: string): IngestMessage => {
  seq += 1;
  return { chat_id: chatId, unique_id: `3EB0IMP${seq}`, from_me: false, sender_phone: chatId, body: `hello ${seq}`, message_type: 'chat', timestamp: new Date(1_700_000_000_000 + seq * 1000).toISOString(), ack: 1 };
};
const upsert = (p: Phone, messages: IngestMessage[]): IngestEvent => ({ ...p, kind: 'messages-upsert', type: 'notify', messages });

/** The spec 2.1 object of a message as the source's GET messages gives it (from another deployment's copy). */
async function sourceObject(p: Phone, m: IngestMessage): Promise<Message> {
  const source = await newPhone();
  await new ApplyIngest(t.prisma).execute([upsert(source, [m])]);
  const row = await t.prisma.message.findFirstOrThrow({ where: { phone_id: source.phone_id } });
  return { ...mapMessage(row as unknown as MessageRow), org_phone: p.org_phone };
}

const importer = () => new ImportMessages(new ImportMessageRepository(t.prisma), directory);
const item = (p: Phone, message: Message) => ({ source_id: message.message_id, phone_id: p.phone_id, message: message as unknown as Record<string, unknown> });

describe('ImportMessages (chats.v1.import.messages)', () => {
  it('stores a source message with its id; the same batch again is skipped, a changed one updated', async () => {
    const p = await newPhone();
    const chatId = `${randomDigits()}@c.us`;
    const m = await sourceObject(p, live(chatId));
    expect((await importer().execute({ ctx: ctx(p.org_id), body: { items: [item(p, m)] } })).results).toEqual([{ source_id: m.message_id, target_id: m.message_id, outcome: 'created' }]);
    expect((await importer().execute({ ctx: ctx(p.org_id), body: { items: [item(p, m)] } })).results[0].outcome).toBe('skipped');
    const edited = { ...m, body: 'edited at the source', prev_body: m.body };
    expect((await importer().execute({ ctx: ctx(p.org_id), body: { items: [item(p, edited)] } })).results[0].outcome).toBe('updated');
    const stored = await t.prisma.message.findMany({ where: { phone_id: p.phone_id } });
    expect(stored.map((s) => [s.message_id, s.body, s.prev_body])).toEqual([[m.message_id, 'edited at the source', m.body]]);
    const chat = await t.prisma.chat.findUnique({ where: { phone_id_chat_id: { phone_id: p.phone_id, chat_id: chatId } } });
    expect(chat?.latest_message_id).toBe(stored[0].id);
    // History: no message.created or chat.created for the webhooks and workflows of this organization.
    expect(await t.prisma.outboxEvent.count({ where: { org_id: p.org_id } })).toBe(0);
  });

  it('a message the connector stored first is the same message when the import brings it: one row', async () => {
    const p = await newPhone();
    const m = live(`${randomDigits()}@c.us`);
    await new ApplyIngest(t.prisma).execute([upsert(p, [m])]);
    const copy = await sourceObject(p, m);
    const [result] = (await importer().execute({ ctx: ctx(p.org_id), body: { items: [item(p, copy)] } })).results;
    expect(result.target_id).toBe(copy.message_id);
    expect(['skipped', 'updated']).toContain(result.outcome);
    expect(await t.prisma.message.count({ where: { phone_id: p.phone_id } })).toBe(1);
  });

  it('a message the import stored first is not stored again, nor announced, when the connector brings it', async () => {
    const p = await newPhone();
    const m = live(`${randomDigits()}@c.us`);
    await importer().execute({ ctx: ctx(p.org_id), body: { items: [item(p, await sourceObject(p, m))] } });
    await new ApplyIngest(t.prisma).execute([upsert(p, [m])]);
    expect(await t.prisma.message.count({ where: { phone_id: p.phone_id } })).toBe(1);
    const events = await t.prisma.outboxEvent.findMany({ where: { org_id: p.org_id, type: 'message.created' } });
    expect(events).toHaveLength(0);
  });

  it('fails a bad item alone, and never writes to another organization\'s phone', async () => {
    const [p, other] = [await newPhone(), await newPhone()];
    const good = await sourceObject(p, live(`${randomDigits()}@c.us`));
    const theirs = await sourceObject(other, live(`${randomDigits()}@c.us`));
    const { results } = await importer().execute({
      ctx: ctx(p.org_id),
      body: { items: [item(p, good), { source_id: 'x', phone_id: p.phone_id, message: { message_id: 'x' } }, item(other, theirs), 'not an object'] },
    });
    expect(results.map((r) => r.outcome)).toEqual(['created', 'failed', 'failed', 'failed']);
    expect(results[1].reason).toMatch(/unique_id/);
    expect(results[2].reason).toMatch(/not a phone of this organization/);
    expect(await t.prisma.message.count({ where: { phone_id: other.phone_id } })).toBe(0);
  });
});
