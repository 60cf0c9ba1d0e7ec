import { LabelSchema } from '@mapi/contracts';
import { randomDigits } from '@mapi/testing';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, expect404, expect422, expectEnvelope } from './support/http';
import { startStack, type Stack } from './support/stack';
import { twoOrganizations } from './support/two-organizations';

/**
 * Renaming and deleting an organization's label end to end (issue 17): PATCH|DELETE /labels/{label_id}
 * in the inbox, the chats service's copies (chat_labels by id, contacts.labels by name) following through
 * chats.v1.chat.rename-label / drop-label, tickets' names in the inbox's own transaction; GET /chats?label=
 * by the new name. Gateway, chats, phones, members, inbox as processes.
 */
describe('renaming and deleting labels', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  let member: ConsoleSession;
  let admin: ConsoleSession;
  const w: Record<string, any> = {};
  const [alice, bob, carol] = [randomDigits(), randomDigits(), randomDigits()];
  const [chatA, chatB, chatC] = [`${alice}@c.us`, `${bob}@c.us`, `${carol}@c.us`];
  const chatIds = async (c: ReturnType<typeof client>, label: string) =>
    (await c.get(`/chats?label=${encodeURIComponent(label)}`)).body.chats.map((x: any) => x.chat_id).sort();
  const labelIds = async (c: ReturnType<typeof client>, chatId: string) =>
    Object.keys((await c.get(`/chats/${chatId}`)).body.label_ids ?? {}).sort();
  const labelOf = async (id: string) => stack.prisma.inboxLabel.findUnique({ where: { label_id: id } });

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones', 'members', 'inbox'] });
    Object.assign(
      w,
      await twoOrganizations(stack, [
        ['p1', chatA],
        ['p1', chatB],
        ['p2', chatC],
        ['q', chatA],
      ]),
    );
    ({ api, other, scoped } = w);
    member = await joinByInvitation(
      stack.baseUrl,
      api,
      { emails: ['mia@example.com'], role: 'member', orgPhones: [w.p1.phone_id] },
      'a long enough password 1',
    );
    admin = await joinByInvitation(stack.baseUrl, api, { emails: ['ada@example.com'], role: 'admin' }, 'a long enough password 1');
    // vip on A, B (phone 1) and C (phone 2); the other organization's chat A carries its own vip
    expect((await api.patch('/chats/labels', { labels: 'vip, late', chat_ids: [chatA, chatB, chatC] })).status).toBe(204);
    expect((await other.patch('/chats/labels', { labels: 'vip', chat_ids: [chatA] })).status).toBe(204);
    const labels = (await api.get('/labels')).body.labels;
    w.vip = labels.find((l: any) => l.name === 'vip').label_id;
    w.late = labels.find((l: any) => l.name === 'late').label_id;
    w.theirVip = (await other.get('/labels')).body.labels[0].label_id;
  }, 180_000);

  afterAll(() => stack?.stop(), 60_000);

  describe('PATCH /labels/{label_id}', () => {
    it('renames a chat label: GET /chats?label= finds its chats by the new name (and id), no longer by the old; label_ids unchanged', async () => {
      const events = () => stack.prisma.outboxEvent.count({ where: { org_id: w.org.id, type: 'chat.label.updated' } });
      const before = await events();
      const res = await api.patch(`/labels/${w.vip}`, { name: ' Gold ', color: '#00AA00' });
      expect(res.status).toBe(200);
      expect(LabelSchema.safeParse(res.body).success).toBe(true);
      expect(res.body).toMatchObject({ label_id: w.vip, name: 'gold', color: '#00aa00', type: 'chat', org_id: w.org.id });
      expect(await chatIds(api, 'GOLD')).toEqual([chatA, chatB, chatC].sort());
      expect(await chatIds(api, w.vip)).toEqual([chatA, chatB, chatC].sort());
      expect(await chatIds(api, 'vip')).toEqual([]);
      expect(await labelIds(api, chatA)).toEqual([w.vip, w.late].sort());
      // the other organization's label of the old name is untouched
      expect(await chatIds(other, 'vip')).toEqual([chatA]);
      expect((await labelOf(w.theirVip))?.name).toBe('vip');
      expect(await events()).toBe(before);
    });

    it("renames a contact label on the organization's contacts, and a ticket label on its tickets", async () => {
      const contactId = `${randomDigits()}@c.us`;
      expect(
        (
          await api.post(
            '/contacts/create',
            { contact_id: contactId, contact_name: 'Zed', labels: 'lead, cold' },
            { 'x-phone': w.p1.phone_id },
          )
        ).status,
      ).toBeLessThan(300);
      const lead = await api.post('/labels/create', { name: 'lead', type: 'contact' });
      expect((await api.patch(`/labels/${lead.body.label_id}`, { name: 'prospect' })).body).toMatchObject({
        name: 'prospect',
        type: 'contact',
      });
      expect((await api.get(`/contacts/${contactId}`)).body.labels).toEqual(['prospect', 'cold']);
      const ticket = await api.post('/tickets/create', { chat_id: chatB, subject: 'Refund', labels: 'billing' });
      expect(ticket.status).toBe(200);
      const billing = await api.post('/labels/create', { name: 'billing', type: 'ticket' });
      expect((await api.patch(`/labels/${billing.body.label_id}`, { name: 'invoices' })).status).toBe(200);
      expect((await api.get(`/tickets/${ticket.body.ticket.ticket_id}`)).body.ticket.ticket_labels).toBe('invoices');
      expect((await api.get('/tickets?label=invoices')).body.count).toBe(1);
      w.contactId = contactId;
      w.prospect = lead.body.label_id;
      w.invoices = billing.body.label_id;
      w.ticket = ticket.body.ticket.ticket_id;
    });

    it.each([
      [{}, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ name: 'a,b' }, 'body.name'],
      [{ name: 'LATE' }, 'body.name'],
      [{ color: 'green' }, 'body.color'],
      [{ name: 7 }, 'body.name'],
    ])('422 for %j on %s, and nothing changes', async (body, field) => {
      expect422(await api.patch(`/labels/${w.vip}`, body), field);
      expect(await labelOf(w.vip)).toMatchObject({ name: 'gold', color: '#00aa00' });
      expect(await chatIds(api, 'gold')).toHaveLength(3);
    });

    it('422 on label_id when it is not a UUID', async () => {
      expect422(await api.patch('/labels/not-a-uuid', { name: 'x' }), 'label_id');
    });

    it("another organization's label is 404 and changes nothing (theirs or ours)", async () => {
      expect404(await other.patch(`/labels/${w.vip}`, { name: 'stolen' }));
      expect404(await api.patch(`/labels/${w.theirVip}`, { name: 'stolen' }));
      expect((await labelOf(w.vip))?.name).toBe('gold');
      expect((await labelOf(w.theirVip))?.name).toBe('vip');
      expect(await chatIds(other, 'vip')).toEqual([chatA]);
      expect(await chatIds(api, 'stolen')).toEqual([]);
    });

    it("the catalogue is the organization's: a phone-scoped token renames it for every phone (x-phone is not read)", async () => {
      expect((await scoped.patch(`/labels/${w.late}`, { name: 'overdue' }, { 'x-phone': w.p2.phone_id })).status).toBe(200);
      expect(await chatIds(api, 'overdue')).toEqual([chatA, chatB, chatC].sort());
      expect(await chatIds(scoped, 'overdue')).toEqual([chatA, chatB].sort());
    });

    it("a member's console session is 403 (admins only) and nothing changes; an admin's may, audited", async () => {
      const refused = await member.call('PATCH', `/labels/${w.late}`, { name: 'mine' });
      expect(refused.status).toBe(403);
      expectEnvelope(refused.body, 'FORBIDDEN_ERROR', 403);
      expect((await labelOf(w.late))?.name).toBe('overdue');
      expect((await admin.call('PATCH', `/labels/${w.late}`, { name: 'late' })).status).toBe(200);
      expect(await chatIds(api, 'late')).toHaveLength(3);
      const audit = await api.get('/members/audit');
      expect(audit.body.entries.find((e: any) => e.action === 'label.updated' && e.actor_email === 'ada@example.com')).toMatchObject({
        target: w.late,
      });
    });
  });

  describe('DELETE /labels/{label_id}', () => {
    it("another organization's label, or a member's session, is refused and nothing changes", async () => {
      expect404(await other.delete(`/labels/${w.vip}`));
      expect404(await api.delete(`/labels/${w.theirVip}`));
      expect((await member.call('DELETE', `/labels/${w.vip}`)).status).toBe(403);
      expect422(await api.delete('/labels/nope'), 'label_id');
      expect(await labelIds(api, chatA)).toEqual([w.vip, w.late].sort());
      expect(await chatIds(other, 'vip')).toEqual([chatA]);
    });

    it('removes a chat label from every chat of every phone, then the label; a second delete is 404', async () => {
      const res = await scoped.delete(`/labels/${w.vip}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ label_id: w.vip, name: 'gold' });
      for (const chat of [chatA, chatB, chatC]) expect(await labelIds(api, chat)).toEqual([w.late]);
      expect(await chatIds(api, 'gold')).toEqual([]);
      expect(await chatIds(api, w.vip)).toEqual([]);
      expect((await api.get('/labels')).body.labels.map((l: any) => l.label_id)).not.toContain(w.vip);
      expect404(await api.delete(`/labels/${w.vip}`));
      expect404(await api.patch(`/labels/${w.vip}`, { name: 'back' }));
      // naming it on a chat again makes a new label
      expect((await api.patch('/chats/labels', { labels: 'gold', chat_ids: [chatA] })).status).toBe(204);
      expect((await api.get('/labels')).body.labels.find((l: any) => l.name === 'gold').label_id).not.toBe(w.vip);
      expect(await chatIds(other, 'vip')).toEqual([chatA]);
    });

    it('removes a contact label from contacts and a ticket label from tickets', async () => {
      expect((await api.delete(`/labels/${w.prospect}`)).status).toBe(200);
      expect((await api.get(`/contacts/${w.contactId}`)).body.labels).toEqual(['cold']);
      expect((await api.delete(`/labels/${w.invoices}`)).status).toBe(200);
      expect((await api.get(`/tickets/${w.ticket}`)).body.ticket.ticket_labels).toBe('');
    });
  });
});
