import type { Contact, RequestContext } from '@mapi/contracts';
import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { mapContact } from '../../contacts/map-contact';
import { ContactRepository } from '../../repositories/contact-repository';
import { ImportContacts } from './import-contacts.usecase';

const t = useTestDatabase('import_contacts');
const ctx = (orgId: string): RequestContext => ({ org_id: orgId, token_id: newUuid(), phone_scope: null, phone: null, member: null });
const person = () => `${randomDigits()}@c.us`;
const run = (orgId: string, items: unknown[]) => new ImportContacts(t.prisma).execute({ ctx: ctx(orgId), body: { items } });

/** A contact as the source's GET /contacts answers it. */
async function sourceContact(
  orgId: string,
  id: string,
  values: { contact_name: string; is_internal?: boolean; labels?: string[] },
): Promise<Contact> {
  const row = await new ContactRepository(t.prisma).create(orgId, id, [], values);
  return JSON.parse(JSON.stringify(mapContact(row))) as Contact;
}
const item = (c: Contact) => ({ source_id: c.contact_id, ...c });

describe('ImportContacts (chats.v1.import.contacts)', () => {
  it('creates contacts with their ids, names, labels and is_internal kept; a second run skips them all', async () => {
    const [source, target] = [await createOrg(t.prisma), await createOrg(t.prisma)];
    const a = await sourceContact(source.id, person(), { contact_name: 'Ann', is_internal: true, labels: ['vip', 'lead'] });
    const b = await sourceContact(source.id, person(), { contact_name: 'Bob' });
    const answer = await run(target.id, [item(a), item(b)]);
    expect(answer.results).toEqual([a, b].map((c) => ({ source_id: c.contact_id, target_id: c.contact_id, outcome: 'created' })));
    const stored = await t.prisma.contact.findMany({ where: { org_id: target.id }, orderBy: { contact_id: 'asc' } });
    const strip = (c: Contact) => ({ ...c, org_id: null, updated_at: null });
    expect(stored.map((r) => strip(JSON.parse(JSON.stringify(mapContact(r)))))).toEqual(
      [a, b].sort((x, y) => (x.contact_id < y.contact_id ? -1 : 1)).map(strip),
    );

    const before = await t.prisma.contact.findMany({ where: { org_id: target.id }, orderBy: { contact_id: 'asc' } });
    expect((await run(target.id, [item(a), item(b)])).results.map((r) => r.outcome)).toEqual(['skipped', 'skipped']);
    expect(await t.prisma.contact.findMany({ where: { org_id: target.id }, orderBy: { contact_id: 'asc' } })).toEqual(before);
  });

  it('updates a changed contact, and keeps what the source does not give (a push name learned here)', async () => {
    const [source, target] = [await createOrg(t.prisma), await createOrg(t.prisma)];
    const a = await sourceContact(source.id, person(), { contact_name: 'Ann', labels: ['vip'] });
    await t.prisma.contact.create({ data: { org_id: target.id, contact_id: a.contact_id, pushname: 'Annie', phone_ids: ['p-x'] } });
    expect((await run(target.id, [item(a)])).results[0].outcome).toBe('updated');
    expect((await run(target.id, [{ ...item(a), labels: ['VIP', 'Gold'], label_ids: undefined }])).results[0].outcome).toBe('updated');
    const row = await t.prisma.contact.findUniqueOrThrow({ where: { org_id_contact_id: { org_id: target.id, contact_id: a.contact_id } } });
    expect(row).toMatchObject({ contact_name: 'Ann', pushname: 'Annie', labels: ['vip', 'gold'], phone_ids: ['p-x'], is_imported: true });
  });

  it('answers a bad item failed with why while the rest lands; the same contact of another organization is untouched', async () => {
    const [source, target, other] = [await createOrg(t.prisma), await createOrg(t.prisma), await createOrg(t.prisma)];
    const a = await sourceContact(source.id, person(), { contact_name: 'Ann' });
    await t.prisma.contact.create({ data: { org_id: other.id, contact_id: a.contact_id, contact_name: 'Theirs', labels: ['x'] } });
    const otherBefore = await t.prisma.contact.findMany({ where: { org_id: other.id } });
    const answer = await run(target.id, [
      { ...item(a), source_id: 'g1', contact_id: '120363012345678901@g.us' },
      item(a),
      { source_id: 'x', contact_id: a.contact_id, labels: 'vip' },
    ]);
    expect(answer.results).toEqual([
      { source_id: 'g1', target_id: null, outcome: 'failed', reason: expect.stringMatching(/^contact_id: /) },
      { source_id: a.contact_id, target_id: a.contact_id, outcome: 'created' },
      { source_id: 'x', target_id: null, outcome: 'failed', reason: expect.stringMatching(/^labels: /) },
    ]);
    expect(await t.prisma.contact.findMany({ where: { org_id: other.id } })).toEqual(otherBefore);
    expect(await t.prisma.contact.count({ where: { org_id: target.id } })).toBe(1);
  });
});
