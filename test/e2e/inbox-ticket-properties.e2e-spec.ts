import { TicketInfoSchema } from '@mapi/contracts';
import { randomDigits, registryPayload } from '@mapi/testing';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, expect404, expect422 } from './support/http';
import { startStack, type Stack } from './support/stack';
import { twoOrganizations } from './support/two-organizations';

/**
 * Ticket custom properties end to end (issue 17): definitions of type ticket (POST /custom-properties/create),
 * values set with PATCH /tickets/{ticket_id} `custom_properties`, checked against them (422 per key), shown as
 * `ticket_custom_properties` / the row's `custom_properties`, ticket.updated with previous_attributes.
 * Gateway, chats, phones, members, inbox as processes.
 */
describe('ticket custom properties', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  let lea: ConsoleSession;
  const w: Record<string, any> = {};
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];
  const values = async (ticketId: string) =>
    (await stack.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: ticketId } })).custom_properties;
  const updates = (ticketId: string) =>
    stack.prisma.outboxEvent.findMany({
      where: { org_id: w.org.id, type: 'ticket.updated', payload: { path: ['ticket_id'], equals: ticketId } },
      orderBy: { seq: 'asc' },
    });

  beforeAll(async () => {
    stack = await startStack({}, { services: ['phones', 'members', 'inbox'] });
    Object.assign(
      w,
      await twoOrganizations(stack, [
        ['p1', chatA],
        ['p2', chatB],
        ['q', chatA],
      ]),
    );
    ({ api, other, scoped } = w);
    // Lea reaches chat A only (phone 1, label vip)
    expect((await api.patch('/chats/labels', { labels: 'vip', chat_ids: [chatA] })).status).toBe(204);
    lea = await joinByInvitation(
      stack.baseUrl,
      api,
      { emails: ['lea@example.com'], role: 'member', orgPhones: [w.p1.phone_id, w.p2.phone_id], labels: ['vip'] },
      'correct horse battery',
    );
    w.tA = (await api.post('/tickets/create', { chat_id: chatA, subject: 'A' })).body.ticket.ticket_id;
    w.tB = (await api.post('/tickets/create', { chat_id: chatB, subject: 'B' })).body.ticket.ticket_id;
    w.theirTicket = (await other.post('/tickets/create', { chat_id: chatA, subject: 'theirs' })).body.ticket.ticket_id;
  }, 180_000);

  afterAll(() => stack?.stop(), 60_000);

  it('defines ticket properties (type ticket); type contact is 422', async () => {
    const severity = await api.post('/custom-properties/create', {
      property_name: 'Severity',
      type: 'ticket',
      property_value_type: 'dropdown',
      property_value: 'Low,High',
      is_required: true,
    });
    expect(severity.status).toBe(200);
    expect(severity.body).toMatchObject({ type: 'ticket', property_value: 'Low,High', is_required: true });
    const due = await api.post('/custom-properties/create', { property_name: 'Promised', type: 'ticket', property_value_type: 'date' });
    const tier = await api.post('/custom-properties/create', { property_name: 'Tier', property_value_type: 'text' });
    [w.severity, w.promised, w.tier] = [severity.body.property_id, due.body.property_id, tier.body.property_id];
    w.theirs = (await other.post('/custom-properties/create', { property_name: 'Severity', type: 'ticket' })).body.property_id;
    expect422(await api.post('/custom-properties/create', { property_name: 'Owner', type: 'contact' }), 'body.type');
    expect((await api.get('/custom-properties')).body.custom_properties.map((x: any) => [x.property_name, x.type])).toEqual([
      ['Severity', 'ticket'],
      ['Promised', 'ticket'],
      ['Tier', 'chat'],
    ]);
  });

  it('PATCH /tickets/{ticket_id} sets values by name or id, shown on the ticket; ticket.updated with previous_attributes', async () => {
    const res = await api.patch(`/tickets/${w.tA}`, { custom_properties: { SEVERITY: 'high', [w.promised]: '2026-03-01' } });
    expect(res.status).toBe(200);
    expect(TicketInfoSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.ticket.ticket_custom_properties).toEqual({ [w.severity]: 'High', [w.promised]: '2026-03-01' });
    expect((await api.get(`/tickets/${w.tA}`)).body.ticket.ticket_custom_properties).toEqual({
      [w.severity]: 'High',
      [w.promised]: '2026-03-01',
    });
    expect((await api.get('/tickets')).body.tickets.find((x: any) => x.ticket_id === w.tA).custom_properties).toEqual({
      [w.severity]: 'High',
      [w.promised]: '2026-03-01',
    });
    const [event] = await updates(w.tA);
    expect(registryPayload(event)).toMatchObject({
      ticket_id: w.tA,
      custom_properties: { [w.severity]: 'High', [w.promised]: '2026-03-01' },
    });
    expect(event.previous_attributes).toMatchObject({ custom_properties: {} });
    // a chat's properties are not a ticket's, nor the other way round
    expect422(await api.patch(`/chats/${alice}`, { custom_properties: { severity: 'High' } }), 'body.custom_properties.severity');
  });

  it.each([
    [{ custom_properties: { severity: 'Medium' } }, 'body.custom_properties.severity'],
    [{ custom_properties: { severity: null } }, 'body.custom_properties.severity'],
    [{ custom_properties: { promised: 'soon' } }, 'body.custom_properties.promised'],
    [{ custom_properties: { tier: 'gold' } }, 'body.custom_properties.tier'],
    [{ custom_properties: { nothing: 'x' } }, 'body.custom_properties.nothing'],
    [{ custom_properties: 'severity=high' }, 'body.custom_properties'],
    [{ custom_properties: { severity: ['High'] } }, 'body.custom_properties.severity'],
  ])('422 for %j on %s, and nothing changes', async (body, field) => {
    const before = await values(w.tA);
    const events = (await updates(w.tA)).length;
    expect422(await api.patch(`/tickets/${w.tA}`, body), field);
    expect(await values(w.tA)).toEqual(before);
    expect(await updates(w.tA)).toHaveLength(events);
  });

  it("another organization's property id is 422 (not ours); another organization's ticket is 404 and unchanged", async () => {
    expect422(await api.patch(`/tickets/${w.tA}`, { custom_properties: { [w.theirs]: 'x' } }), `body.custom_properties.${w.theirs}`);
    expect404(await other.patch(`/tickets/${w.tA}`, { custom_properties: { severity: 'x' } }));
    expect404(await api.patch(`/tickets/${w.theirTicket}`, { custom_properties: { severity: 'Low' } }));
    expect(await values(w.theirTicket)).toEqual({});
    expect((await values(w.tA)) as any).toMatchObject({ [w.severity]: 'High' });
  });

  it("a scoped token: its phone's ticket it may set; another phone's is 404, x-phone outside its phones 401", async () => {
    expect(
      (await scoped.patch(`/tickets/${w.tA}`, { custom_properties: { severity: 'low' } })).body.ticket.ticket_custom_properties,
    ).toMatchObject({ [w.severity]: 'Low' });
    expect404(await scoped.patch(`/tickets/${w.tB}`, { custom_properties: { severity: 'low' } }));
    expect((await scoped.patch(`/tickets/${w.tB}`, { custom_properties: { severity: 'low' } }, { 'x-phone': w.p2.phone_id })).status).toBe(
      401,
    );
    expect(await values(w.tB)).toEqual({});
  });

  it('a member: a ticket of a chat within their labels they may set; one outside is 404 and unchanged', async () => {
    const res = await lea.call('PATCH', `/tickets/${w.tA}`, { custom_properties: { severity: 'High' } });
    expect(res.status).toBe(200);
    expect(res.body.ticket.ticket_custom_properties).toMatchObject({ [w.severity]: 'High' });
    expect404(await lea.call('PATCH', `/tickets/${w.tB}`, { custom_properties: { severity: 'High' } }));
    expect(await values(w.tB)).toEqual({});
  });

  it('POST /tickets/create takes values (ours), checked the same way: 422 per key and no ticket made', async () => {
    const made = await api.post('/tickets/create', {
      chat_id: chatA,
      subject: 'With values',
      custom_properties: { severity: 'low', promised: 1767225600000 },
    });
    expect(made.status).toBe(200);
    expect(made.body.ticket.ticket_custom_properties).toEqual({ [w.severity]: 'Low', [w.promised]: '2026-01-01T00:00:00.000Z' });
    const count = await stack.prisma.inboxTicket.count({ where: { org_id: w.org.id } });
    const bad = await api.post('/tickets/create', { chat_id: chatA, subject: 'Bad', custom_properties: { severity: 'Huge', tier: 'x' } });
    expect422(bad, 'body.custom_properties.severity');
    expect(Object.keys(bad.body.fields).sort()).toEqual(['body.custom_properties.severity', 'body.custom_properties.tier']);
    expect(await stack.prisma.inboxTicket.count({ where: { org_id: w.org.id } })).toBe(count);
  });

  it('deleting a ticket property removes its values from tickets', async () => {
    expect((await api.delete(`/custom-properties/${w.promised}`)).status).toBe(200);
    expect((await api.get(`/tickets/${w.tA}`)).body.ticket.ticket_custom_properties).toEqual({ [w.severity]: 'High' });
  });
});
