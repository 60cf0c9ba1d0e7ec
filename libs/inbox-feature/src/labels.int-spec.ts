import {
  Errors,
  MAX_CUSTOM_PROPERTIES,
  ServiceError,
  type ChatView,
  type RequestContext,
  type SetChatPropertiesRequest,
} from '@mapi/contracts';
import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import type { ChatLookup } from './chat-lookup';
import type { ChatProperties } from './chat-properties';
import { CustomPropertyRepository } from './repositories/custom-property-repository';
import { LabelRepository } from './repositories/label-repository';
import { CreateCustomProperty } from './usecases/create-custom-property/create-custom-property.usecase';
import { CreateLabel } from './usecases/create-label/create-label.usecase';
import { DeleteCustomProperty } from './usecases/delete-custom-property/delete-custom-property.usecase';
import { DeleteLabel } from './usecases/delete-label/delete-label.usecase';
import { ListCustomProperties } from './usecases/list-custom-properties/list-custom-properties.usecase';
import { ListLabels } from './usecases/list-labels/list-labels.usecase';
import { UpdateChatLabels } from './usecases/update-chat-labels/update-chat-labels.usecase';
import { UpdateChat } from './usecases/update-chat/update-chat.usecase';
import { UpdateCustomProperty } from './usecases/update-custom-property/update-custom-property.usecase';
import { UpdateLabel } from './usecases/update-label/update-label.usecase';

/**
 * Labels and custom property definitions against Postgres, and the chat-property use cases up to
 * the chats service (another process: here an in-memory stand-in with its reach rule, recording what
 * it is asked to set; test/e2e/chat-labels.e2e-spec.ts runs the real one).
 */
describe('labels and custom properties (integration)', () => {
  const t = useTestDatabase('inbox_labels');
  const w: Record<string, any> = {};
  const held: { org: string; chat: string }[] = [];
  const sets: SetChatPropertiesRequest['body'][] = [];
  const drops: string[] = [];
  const copies: string[] = [];
  const chatProperties: ChatProperties = {
    missing: async (ctx, ids) => ids.filter((id) => !held.some((h) => h.org === ctx.org_id && h.chat === id)),
    set: async (ctx, body) => {
      if (body.chat_ids.some((id) => !held.some((h) => h.org === ctx.org_id && h.chat === id))) throw Errors.notFound('Chat not found');
      sets.push(body);
      return body.chat_ids.length;
    },
    drop: async (_ctx, id) => (drops.push(id), 0),
    renameLabel: async (ctx, l, to) => (
      copies.push(`rename ${ctx.org_id === w.org ? 'ours' : 'theirs'} ${l.type} ${l.label_id} ${l.name}->${to}`),
      0
    ),
    dropLabel: async (ctx, l) => (copies.push(`drop ${ctx.org_id === w.org ? 'ours' : 'theirs'} ${l.type} ${l.label_id} ${l.name}`), 0),
  };
  const lookup: ChatLookup = { chat: async (_ctx, chatId) => ({ chat_id: chatId }) as ChatView, message: async () => null };
  const labels = () => new LabelRepository(t.prisma);
  const props = () => new CustomPropertyRepository(t.prisma);
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: w.token, phone_scope: null, phone: null });
  const createProperty = (org: string, body: Record<string, unknown>) =>
    new CreateCustomProperty(props()).execute({ ctx: ctx(org), body: { property_value_type: 'text', ...body } as any });
  const updateProperty = (org: string, id: string, body: Record<string, unknown>) =>
    new UpdateCustomProperty(props()).execute({ ctx: ctx(org), params: { property_id: id }, body });
  const updateChat = (org: string, chatId: string, body: Record<string, unknown>) =>
    new UpdateChat(labels(), props(), chatProperties, lookup).execute({ ctx: ctx(org), params: { chat_id: chatId }, body });
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  };

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.token = newUuid();
    [w.a, w.b, w.theirs] = [`${randomDigits()}@c.us`, `${randomDigits()}@c.us`, `${randomDigits()}@c.us`];
    held.push({ org: w.org, chat: w.a }, { org: w.org, chat: w.b }, { org: w.other, chat: w.theirs });
  });

  beforeEach(() => {
    sets.length = 0;
    drops.length = 0;
    copies.length = 0;
  });

  describe('labels', () => {
    it('creates a label lower case with the default colour; creating it again answers the same label', async () => {
      const vip = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'vip' } });
      expect(vip).toMatchObject({ org_id: w.org, name: 'vip', color: '#9e9e9e', type: 'chat' });
      const again = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'vip', color: '#ff0000' } });
      expect(again).toEqual(vip);
      const theirs = await new CreateLabel(labels()).execute({
        ctx: ctx(w.other),
        body: { name: 'vip', type: 'ticket', color: '#00ff00' },
      });
      expect(theirs.label_id).not.toBe(vip.label_id);
      w.vip = vip.label_id;
    });

    it('creates missing names concurrently without duplicates', async () => {
      const names = ['alpha', 'beta', 'gamma'];
      const [x, y] = await Promise.all([
        labels().ensure(w.org, 'chat', names, '#000000'),
        labels().ensure(w.org, 'chat', [...names].reverse(), '#111111'),
      ]);
      expect(x.map((l) => l.label_id)).toEqual([...y].reverse().map((l) => l.label_id));
      expect(await t.prisma.inboxLabel.count({ where: { org_id: w.org, name: { in: names } } })).toBe(3);
    });

    it("lists the organization's labels only, by type and name, paged", async () => {
      const all = await new ListLabels(labels()).execute({ ctx: ctx(w.org), query: { offset: 0, limit: 2000 } });
      expect(all.labels.map((l) => l.name)).toEqual(['alpha', 'beta', 'gamma', 'vip']);
      expect(all).toMatchObject({ from: 1, to: 4, count: 4 });
      expect(
        (await new ListLabels(labels()).execute({ ctx: ctx(w.org), query: { offset: 1, limit: 2, type: 'chat' } })).labels.map(
          (l) => l.name,
        ),
      ).toEqual(['beta', 'gamma']);
      expect(
        (await new ListLabels(labels()).execute({ ctx: ctx(w.other), query: { offset: 0, limit: 2000, type: 'chat' } })).labels,
      ).toEqual([]);
    });
  });

  describe('renaming and deleting labels', () => {
    const update = (org: string, id: string, body: Record<string, unknown>) =>
      new UpdateLabel(labels(), chatProperties).execute({ ctx: ctx(org), params: { label_id: id }, body });
    const remove = (org: string, id: string) =>
      new DeleteLabel(labels(), chatProperties).execute({ ctx: ctx(org), params: { label_id: id } });
    const ticket = async (org: string, names: string[]) =>
      (
        await t.prisma.inboxTicket.create({
          data: { ticket_id: newUuid(), org_id: org, phone_id: 'p', chat_id: w.a, subject: 's', labels: names },
        })
      ).ticket_id;
    const ticketLabels = async (id: string) => (await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: id } })).labels;

    it('renames a chat label: its copies are renamed first, then the catalogue; the colour alone touches no copy', async () => {
      const l = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'old-name' } });
      const renamed = await update(w.org, l.label_id, { name: 'new-name', color: '#123456' });
      expect(renamed).toEqual({ ...l, name: 'new-name', color: '#123456' });
      expect(copies).toEqual([`rename ours chat ${l.label_id} old-name->new-name`, `rename ours chat ${l.label_id} old-name->new-name`]);
      copies.length = 0;
      expect(await update(w.org, l.label_id, { color: '#654321' })).toMatchObject({ name: 'new-name', color: '#654321' });
      expect(await update(w.org, l.label_id, { name: 'new-name' })).toMatchObject({ name: 'new-name' });
      expect(copies).toEqual([]);
    });

    it('a name another label of its type has is 422 on body.name and changes nothing; the same name of another type is free', async () => {
      const a = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'first' } });
      await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'second' } });
      const clash = await failure(update(w.org, a.label_id, { name: 'second' }));
      expect([clash.status, Object.keys(clash.fields ?? {})]).toEqual([422, ['body.name']]);
      expect(copies).toEqual([]);
      expect((await labels().find(w.org, a.label_id))?.name).toBe('first');
      await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'third', type: 'ticket' } });
      expect(await update(w.org, a.label_id, { name: 'third' })).toMatchObject({ name: 'third', type: 'chat' });
    });

    it("renames a ticket label on the organization's tickets in the same transaction (a ticket holding both keeps one)", async () => {
      const l = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'billing', type: 'ticket' } });
      const [one, both, theirs] = [
        await ticket(w.org, ['x', 'billing']),
        await ticket(w.org, ['invoices', 'billing', 'y']),
        await ticket(w.other, ['billing']),
      ];
      await update(w.org, l.label_id, { name: 'invoices' });
      expect([await ticketLabels(one), await ticketLabels(both), await ticketLabels(theirs)]).toEqual([
        ['x', 'invoices'],
        ['invoices', 'y'],
        ['billing'],
      ]);
      expect(copies).toEqual([`rename ours ticket ${l.label_id} billing->invoices`]);
    });

    it("another organization's label is 404 on rename and delete, and nothing changes", async () => {
      const l = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'mine-only' } });
      expect((await failure(update(w.other, l.label_id, { name: 'taken-over' }))).status).toBe(404);
      expect((await failure(remove(w.other, l.label_id))).status).toBe(404);
      expect((await failure(update(w.org, newUuid(), { color: '#000000' }))).status).toBe(404);
      expect(copies).toEqual([]);
      expect(await labels().find(w.org, l.label_id)).toMatchObject({ name: 'mine-only', color: '#9e9e9e' });
    });

    it('deletes a chat label after its copies are dropped (and once more after, for a chat labelled meanwhile); a second delete is 404', async () => {
      const l = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'doomed' } });
      expect(await remove(w.org, l.label_id)).toEqual(l);
      expect(copies).toEqual([`drop ours chat ${l.label_id} doomed`, `drop ours chat ${l.label_id} doomed`]);
      expect(await labels().find(w.org, l.label_id)).toBeNull();
      expect((await failure(remove(w.org, l.label_id))).status).toBe(404);
    });

    it("deletes a ticket label from the organization's tickets with the label, asking the chats service nothing", async () => {
      const l = await new CreateLabel(labels()).execute({ ctx: ctx(w.org), body: { name: 'refund', type: 'ticket' } });
      const [ours, theirs] = [await ticket(w.org, ['refund', 'z']), await ticket(w.other, ['refund'])];
      await remove(w.org, l.label_id);
      expect([await ticketLabels(ours), await ticketLabels(theirs)]).toEqual([['z'], ['refund']]);
      expect(copies).toEqual([]);
    });
  });

  describe('custom properties', () => {
    it('defines properties; a name the organization has (any case) is 422, another organization may use it', async () => {
      const tier = await createProperty(w.org, {
        property_name: 'Tier',
        property_value_type: 'dropdown',
        property_value: 'Gold, Silver',
        is_required: true,
      });
      expect(tier).toMatchObject({
        property_name: 'Tier',
        property_value_type: 'dropdown',
        property_value: 'Gold,Silver',
        is_required: true,
        type: 'chat',
        created_by: w.token,
        org_id: w.org,
      });
      const seats = await createProperty(w.org, { property_name: 'Seats', property_value_type: 'number' });
      expect(seats).toMatchObject({ property_value: null, is_required: false });
      const clash = await failure(createProperty(w.org, { property_name: 'TIER' }));
      expect([clash.status, Object.keys(clash.fields ?? {})]).toEqual([422, ['body.property_name']]);
      await createProperty(w.other, { property_name: 'tier' });
      [w.tier, w.seats] = [tier.property_id, seats.property_id];
      const listed = await new ListCustomProperties(props()).execute({ ctx: ctx(w.org) });
      expect(listed.custom_properties.map((p) => p.property_name)).toEqual(['Tier', 'Seats']);
    });

    it('refuses a definition beyond MAX_CUSTOM_PROPERTIES with 422 on body.property_name', async () => {
      const full = (await createOrg(t.prisma)).id;
      await t.prisma.inboxCustomProperty.createMany({
        data: Array.from({ length: MAX_CUSTOM_PROPERTIES }, (_, i) => ({ property_id: newUuid(), org_id: full, property_name: `p${i}` })),
      });
      const over = await failure(createProperty(full, { property_name: 'one more' }));
      expect([over.status, Object.keys(over.fields ?? {})]).toEqual([422, ['body.property_name']]);
      expect(await t.prisma.inboxCustomProperty.count({ where: { org_id: full } })).toBe(MAX_CUSTOM_PROPERTIES);
    });

    it("renames, replaces options, changes is_required; the value type cannot change; another organization's is 404", async () => {
      expect(await updateProperty(w.org, w.tier, { property_value: ['Gold', 'Silver', 'Bronze'] })).toMatchObject({
        property_value: 'Gold,Silver,Bronze',
      });
      expect(await updateProperty(w.org, w.seats, { property_name: 'Licences', is_required: false })).toMatchObject({
        property_name: 'Licences',
      });
      expect((await failure(updateProperty(w.org, w.seats, { property_value_type: 'text', is_required: true }))).fields).toHaveProperty([
        'body.property_value_type',
      ]);
      expect((await failure(updateProperty(w.org, w.seats, { property_value: 'a,b' }))).fields).toHaveProperty(['body.property_value']);
      expect((await failure(updateProperty(w.org, w.seats, { property_name: 'tier' }))).fields).toHaveProperty(['body.property_name']);
      expect((await failure(updateProperty(w.other, w.tier, { property_name: 'Mine' }))).status).toBe(404);
      expect((await props().find(w.org, w.tier))?.property_name).toBe('Tier');
    });

    it("deletes a definition after dropping its values; another organization's is 404 and nothing is dropped", async () => {
      const gone = await createProperty(w.org, { property_name: 'Temp' });
      expect(
        (
          await failure(
            new DeleteCustomProperty(props(), chatProperties).execute({ ctx: ctx(w.other), params: { property_id: gone.property_id } }),
          )
        ).status,
      ).toBe(404);
      expect(drops).toEqual([]);
      expect(
        await new DeleteCustomProperty(props(), chatProperties).execute({ ctx: ctx(w.org), params: { property_id: gone.property_id } }),
      ).toMatchObject({ property_name: 'Temp' });
      expect(drops).toEqual([gone.property_id]);
      expect(
        (
          await failure(
            new DeleteCustomProperty(props(), chatProperties).execute({ ctx: ctx(w.org), params: { property_id: gone.property_id } }),
          )
        ).status,
      ).toBe(404);
    });
  });

  describe('chat labels and properties', () => {
    it('PATCH /chats/labels: creates unknown labels and sets them on every chat', async () => {
      await new UpdateChatLabels(labels(), chatProperties).execute({
        ctx: ctx(w.org),
        body: { labels: 'VIP, Urgent ,vip', chat_ids: [w.a, w.b, w.a] },
      });
      const urgent = await t.prisma.inboxLabel.findFirst({ where: { org_id: w.org, type: 'chat', name: 'urgent' } });
      expect(sets).toEqual([
        {
          chat_ids: [w.a, w.b],
          labels: [
            { label_id: w.vip, name: 'vip' },
            { label_id: urgent?.label_id, name: 'urgent' },
          ],
        },
      ]);
    });

    it('PATCH /chats/labels: any chat out of reach is 404 and no label is created', async () => {
      const before = await t.prisma.inboxLabel.count();
      expect(
        (
          await failure(
            new UpdateChatLabels(labels(), chatProperties).execute({
              ctx: ctx(w.org),
              body: { labels: 'brand-new', chat_ids: [w.a, w.theirs] },
            }),
          )
        ).status,
      ).toBe(404);
      expect(await t.prisma.inboxLabel.count()).toBe(before);
      expect(sets).toEqual([]);
    });

    it('PATCH /chats/{chat_id}: values checked and keyed by property id, labels and assignee passed on', async () => {
      const chat = await updateChat(w.org, w.a, {
        custom_properties: { tier: 'bronze', [w.seats]: '12' },
        assigned_to: 'amy@example.com',
        labels: 'vip',
      });
      expect(chat.chat_id).toBe(w.a);
      expect(sets).toEqual([
        {
          chat_ids: [w.a],
          custom_properties: { [w.tier]: 'Bronze', [w.seats]: '12' },
          assigned_to: 'amy@example.com',
          labels: [{ label_id: w.vip, name: 'vip' }],
        },
      ]);
    });

    it('PATCH /chats/{chat_id}: a bad value, an unknown property or clearing a required one is 422 and nothing is set', async () => {
      const bad = await failure(
        updateChat(w.org, w.a, { custom_properties: { tier: 'Platinum', licences: 'x', nope: '1' }, labels: 'fresh-label' }),
      );
      expect(Object.keys(bad.fields ?? {}).sort()).toEqual([
        'body.custom_properties.licences',
        'body.custom_properties.nope',
        'body.custom_properties.tier',
      ]);
      expect((await failure(updateChat(w.org, w.a, { custom_properties: { Tier: null } }))).fields).toHaveProperty([
        'body.custom_properties.Tier',
      ]);
      expect(sets).toEqual([]);
      expect(await t.prisma.inboxLabel.count({ where: { name: 'fresh-label' } })).toBe(0);
    });

    it("PATCH /chats/{chat_id}: another organization's chat, or its property id, is 404 / 422 and nothing is created or set", async () => {
      expect((await failure(updateChat(w.org, w.theirs, { labels: 'never-made' }))).status).toBe(404);
      expect((await failure(updateChat(w.org, w.theirs, { assigned_to: null }))).status).toBe(404);
      const theirTier = await t.prisma.inboxCustomProperty.findFirst({ where: { org_id: w.other } });
      expect((await failure(updateChat(w.org, w.a, { custom_properties: { [String(theirTier?.property_id)]: 'x' } }))).status).toBe(422);
      expect(await t.prisma.inboxLabel.count({ where: { name: 'never-made' } })).toBe(0);
      expect(sets).toEqual([]);
    });
  });
});
