import { ServiceError, type RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { CreateContact } from '../usecases/create-contact/create-contact.usecase';
import { GetContact } from '../usecases/get-contact/get-contact.usecase';
import { ListContacts } from '../usecases/list-contacts/list-contacts.usecase';
import { UpdateContactLabels } from '../usecases/update-contact-labels/update-contact-labels.usecase';
import { UpdateContact } from '../usecases/update-contact/update-contact.usecase';
import { ContactRepository } from './contact-repository';

/** The contacts repository and use cases against Postgres: organization first, narrowed to the phones in reach. */
describe('contacts (integration)', () => {
  const t = useTestDatabase('contacts');
  const w: Record<string, any> = {};
  const repo = () => new ContactRepository(t.prisma);
  const ctx = (org: string, scope: string[] | null = null, phone: string | null = null): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: scope,
    phone: phone ? { phone_id: phone, org_phone: null } : null,
  });
  const seed = (org: string, contactId: string, phoneIds: string[], pushname: string | null = null) =>
    t.prisma.contact.create({ data: { org_id: org, contact_id: contactId, phone_ids: phoneIds, pushname } });
  const notFound = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(404);
  };

  beforeAll(async () => {
    const p = t.prisma;
    w.org = (await createOrg(p)).id;
    w.other = (await createOrg(p)).id;
    w.p1 = (await createPhone(p, w.org)).phone_id;
    w.p2 = (await createPhone(p, w.org)).phone_id;
    w.q1 = (await createPhone(p, w.other)).phone_id;
    [w.a, w.b, w.c] = [randomDigits(), randomDigits(), randomDigits()].sort().map((d) => `${d}@c.us`);
    w.group = `1203630${randomDigits(11)}@g.us`;
    await seed(w.org, w.a, [w.p1], 'Alice');
    await seed(w.org, w.b, [w.p2]);
    await seed(w.org, w.c, [w.p1, w.p2]);
    await seed(w.other, w.a, [w.q1], 'Theirs');
    await p.chat.createMany({
      data: [
        { org_id: w.org, phone_id: w.p1, chat_id: w.a, chat_type: 'user' },
        { org_id: w.org, phone_id: w.p2, chat_id: w.group, chat_type: 'group' },
        { org_id: w.other, phone_id: w.q1, chat_id: w.a, chat_type: 'user' },
      ],
    });
    await p.groupParticipant.create({ data: { org_id: w.org, phone_id: w.p2, chat_id: w.group, contact_id: w.a } });
  });

  it("lists the organization's contacts by contact_id, paged, narrowed to the phones in reach", async () => {
    const list = (c: RequestContext, offset = 0, limit = 2000) => new ListContacts(repo()).execute({ ctx: c, query: { offset, limit } });
    const all = await list(ctx(w.org));
    expect(all).toMatchObject({ from: 1, to: 3, count: 3 });
    expect(all.contacts.map((c) => [c.contact_id, c.org_id, c.contact_name])).toEqual([
      [w.a, w.org, 'Alice'],
      [w.b, w.org, null],
      [w.c, w.org, null],
    ]);
    expect(await list(ctx(w.org), 1, 1)).toMatchObject({ from: 2, to: 2, count: 1, contacts: [{ contact_id: w.b }] });
    expect((await list(ctx(w.org, [w.p1]))).contacts.map((c) => c.contact_id)).toEqual([w.a, w.c]);
    expect((await list(ctx(w.org, null, w.p2))).contacts.map((c) => c.contact_id)).toEqual([w.b, w.c]);
    expect((await list(ctx(w.org, []))).contacts).toEqual([]);
    expect((await list(ctx(w.other))).contacts.map((c) => [c.contact_id, c.pushname])).toEqual([[w.a, 'Theirs']]);
  });

  it("reads one contact with its 1-1 chat and groups in reach; 404 outside reach or another organization's", async () => {
    const get = (c: RequestContext, id: string) => new GetContact(repo()).execute({ ctx: c, params: { contact_id: id } });
    expect((await get(ctx(w.org), w.a)).chat_ids).toEqual([w.a, w.group].sort());
    expect((await get(ctx(w.org, [w.p1]), w.a)).chat_ids).toEqual([w.a]);
    expect((await get(ctx(w.other), w.a)).chat_ids).toEqual([w.a]);
    await notFound(get(ctx(w.org, [w.p2]), w.a));
    await notFound(get(ctx(w.org), `${randomDigits()}@c.us`));
    await notFound(get(ctx(w.other), w.b));
  });

  it("updates name, is_internal and labels in reach only; another organization's contact is 404 and unchanged", async () => {
    const update = (c: RequestContext, id: string, body: object) =>
      new UpdateContact(repo()).execute({ ctx: c, params: { contact_id: id }, body });
    const done = await update(ctx(w.org), w.a, { contact_name: 'Alice A.', is_internal: true, labels: 'VIP,lead' });
    expect(done).toMatchObject({
      contact_name: 'Alice A.',
      periskope_name: 'Alice A.',
      pushname: 'Alice',
      is_internal: true,
      labels: ['vip', 'lead'],
      label_ids: { vip: true, lead: true },
    });
    expect(done.chat_ids).toEqual([w.a, w.group].sort());
    expect(await update(ctx(w.org), w.a, { is_internal: false })).toMatchObject({
      contact_name: 'Alice A.',
      is_internal: false,
      labels: ['vip', 'lead'],
    });
    await notFound(update(ctx(w.org, [w.p2]), w.a, { contact_name: 'X' }));
    await notFound(update(ctx(w.other), w.b, { contact_name: 'X' }));
    const theirs = await t.prisma.contact.findUniqueOrThrow({ where: { org_id_contact_id: { org_id: w.other, contact_id: w.a } } });
    expect(theirs).toMatchObject({ contact_name: null, is_internal: false, labels: [] });
  });

  it('relabels several contacts, all or nothing', async () => {
    const relabel = (c: RequestContext, ids: string[], labels: string) =>
      new UpdateContactLabels(repo()).execute({ ctx: c, body: { contact_ids: ids, labels } });
    expect(await relabel(ctx(w.org), [w.b, w.c, w.b], 'gold')).toBeNull();
    const labelsOf = async (org: string) =>
      (await t.prisma.contact.findMany({ where: { org_id: org }, orderBy: { contact_id: 'asc' } })).map((r) => r.labels);
    expect((await labelsOf(w.org)).slice(1)).toEqual([['gold'], ['gold']]);
    await notFound(relabel(ctx(w.org), [w.b, `${randomDigits()}@c.us`], 'silver'));
    await notFound(relabel(ctx(w.org, [w.p1]), [w.b, w.c], 'silver'));
    await notFound(relabel(ctx(w.other), [w.a, w.b], 'silver'));
    expect((await labelsOf(w.org)).slice(1)).toEqual([['gold'], ['gold']]);
    expect(await labelsOf(w.other)).toEqual([[]]);
    expect(await relabel(ctx(w.org), [w.b], '')).toBeNull();
    expect((await labelsOf(w.org))[1]).toEqual([]);
  });

  it('creates a contact for the phones in reach; a retry answers the same contact, and a learned one is named', async () => {
    const create = (c: RequestContext, body: { contact_id: string; contact_name: string; is_internal?: boolean; labels?: string }) =>
      new CreateContact(repo()).execute({ ctx: c, body });
    const id = `${randomDigits()}@c.us`;
    const first = await create(ctx(w.org, [w.p1, w.p2], w.p2), { contact_id: id, contact_name: 'New one', labels: 'x' });
    expect(first).toMatchObject({
      contact_id: id,
      contact_name: 'New one',
      is_imported: true,
      is_internal: false,
      labels: ['x'],
      pushname: null,
      chat_ids: [],
    });
    const again = await create(ctx(w.org, [w.p1, w.p2], w.p2), { contact_id: id, contact_name: 'New one', labels: 'x' });
    expect(again).toMatchObject({ contact_id: id, contact_name: 'New one', labels: ['x'] });
    expect(await t.prisma.contact.count({ where: { org_id: w.org, contact_id: id } })).toBe(1);
    expect(
      (await t.prisma.contact.findUniqueOrThrow({ where: { org_id_contact_id: { org_id: w.org, contact_id: id } } })).phone_ids,
    ).toEqual([w.p2]);
    const named = await create(ctx(w.org, [w.p1]), { contact_id: w.c, contact_name: 'Carol' });
    expect(named).toMatchObject({ contact_id: w.c, contact_name: 'Carol', labels: ['gold'] });
    const orgWide = await create(ctx(w.org), { contact_id: `${randomDigits()}@c.us`, contact_name: 'Org' });
    await notFound(new GetContact(repo()).execute({ ctx: ctx(w.org, [w.p1]), params: { contact_id: orgWide.contact_id } }));
    expect((await new GetContact(repo()).execute({ ctx: ctx(w.org), params: { contact_id: orgWide.contact_id } })).contact_name).toBe(
      'Org',
    );
  });
});
