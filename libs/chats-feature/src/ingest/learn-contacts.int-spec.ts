import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, useTestDatabase } from '@mapi/testing';
import { mapContact } from '../contacts/map-contact';
import { ContactRepository } from '../repositories/contact-repository';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('learn_contacts');
type Phone = { org_id: string; phone_id: string; org_phone: string };
let seq = 0;

function msg(chatId: string, overrides: Partial<IngestMessage> = {}): IngestMessage {
  seq += 1;
  return {
    chat_id: chatId,
    unique_id: `C${seq}`,
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
const person = () => `${randomDigits()}@c.us`;
async function newPhone(orgId?: string): Promise<Phone> {
  const org = orgId ?? (await createOrg(t.prisma)).id;
  const phone = await createPhone(t.prisma, org);
  return { org_id: org, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
}
const contactsOf = (orgId: string) => t.prisma.contact.findMany({ where: { org_id: orgId }, orderBy: { contact_id: 'asc' } });

describe('ingestion learns contacts', () => {
  it('keeps every inbound sender with its push name and every 1-1 partner, never the phone itself or a group', async () => {
    const p = await newPhone();
    const [alice, bob, carol] = [person(), person(), person()].sort();
    const group = `1203630${randomDigits(11)}@g.us`;
    await new ApplyIngest(t.prisma).execute([
      upsert(p, [msg(alice, { sender_name: 'Alice' }), msg(bob, { from_me: true, sender_phone: p.org_phone, sender_name: 'Phone owner' })]),
      upsert(
        p,
        [
          msg(group, { sender_phone: carol, author: carol, sender_name: 'Carol' }),
          msg(group, { from_me: true, sender_phone: p.org_phone }),
        ],
        'append',
      ),
    ]);
    const rows = await contactsOf(p.org_id);
    expect(rows.map((r) => [r.contact_id, r.pushname, r.contact_name, r.phone_ids])).toEqual([
      [alice, 'Alice', null, [p.phone_id]],
      [bob, null, null, [p.phone_id]],
      [carol, 'Carol', null, [p.phone_id]],
    ]);
  });

  it('never overwrites the name set through the API; a new push name is kept beside it', async () => {
    const p = await newPhone();
    const alice = person();
    await new ApplyIngest(t.prisma).execute([upsert(p, [msg(alice, { sender_name: 'Alice' })])]);
    const repo = new ContactRepository(t.prisma);
    await repo.update(p.org_id, alice, null, { contact_name: 'Alice (customer)' });
    await new ApplyIngest(t.prisma).execute([upsert(p, [msg(alice, { sender_name: 'Ally' })])]);
    const row = await t.prisma.contact.findUniqueOrThrow({ where: { org_id_contact_id: { org_id: p.org_id, contact_id: alice } } });
    expect(row).toMatchObject({ contact_name: 'Alice (customer)', pushname: 'Ally' });
    expect(mapContact(row)).toMatchObject({ contact_name: 'Alice (customer)', periskope_name: 'Alice (customer)', pushname: 'Ally' });
    // A message without a name keeps the last one the network gave.
    await new ApplyIngest(t.prisma).execute([upsert(p, [msg(alice)])]);
    expect((await contactsOf(p.org_id))[0].pushname).toBe('Ally');
  });

  it('adds a second phone that sees the contact; a redelivered batch writes nothing', async () => {
    const a = await newPhone();
    const b = await newPhone(a.org_id);
    const alice = person();
    const batch = [upsert(a, [msg(alice, { sender_name: 'Alice' })])];
    await new ApplyIngest(t.prisma).execute(batch);
    const first = (await contactsOf(a.org_id))[0];
    await new Promise((r) => setTimeout(r, 5));
    await new ApplyIngest(t.prisma).execute(batch);
    expect((await contactsOf(a.org_id))[0].updated_at).toEqual(first.updated_at);
    await new ApplyIngest(t.prisma).execute([upsert(b, [msg(alice, { from_me: true, sender_phone: b.org_phone })])]);
    expect((await contactsOf(a.org_id))[0].phone_ids).toEqual([a.phone_id, b.phone_id].sort());
  });

  it("keeps each organization's contact apart, even for the same number", async () => {
    const [a, b] = [await newPhone(), await newPhone()];
    const alice = person();
    await new ApplyIngest(t.prisma).execute([
      upsert(a, [msg(alice, { sender_name: 'Alice' })]),
      upsert(b, [msg(alice, { sender_name: 'Alicia' })]),
    ]);
    expect((await contactsOf(a.org_id)).map((r) => [r.pushname, r.phone_ids])).toEqual([['Alice', [a.phone_id]]]);
    expect((await contactsOf(b.org_id)).map((r) => [r.pushname, r.phone_ids])).toEqual([['Alicia', [b.phone_id]]]);
  });
});
