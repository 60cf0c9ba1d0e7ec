import { ListTicketsQuery, ServiceError, type RequestContext } from '@mapi/contracts';
import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import { TicketRepository } from '../../repositories/ticket-repository';
import { noReach } from '../../testing/no-reach';
import { ListTickets } from './list-tickets.usecase';

describe('GET /tickets by a ticket custom property value (integration)', () => {
  const t = useTestDatabase('inbox_list_tickets');
  const w: Record<string, string> = {};
  const ctx = (org: string, scope: string[] | null = null): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: scope,
    phone: null,
  });
  const list = (c: RequestContext, query: Record<string, string>) =>
    new ListTickets(new TicketRepository(t.prisma), noReach, new CustomPropertyRepository(t.prisma)).execute({
      ctx: c,
      query: ListTicketsQuery.parse(query),
    });
  const ids = async (c: RequestContext, query: Record<string, string>) => (await list(c, query)).tickets.map((x) => x.subject);
  const fields = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).status).toBe(422);
    return (err as ServiceError).fields;
  };
  const define = async (org: string, name: string, type: string, extra: Record<string, unknown> = {}) =>
    (await t.prisma.inboxCustomProperty.create({ data: { property_id: newUuid(), org_id: org, property_name: name, type, ...extra } }))
      .property_id;
  let at = Date.parse('2026-11-01T00:00:00Z');
  const ticket = (org: string, phone: string, subject: string, values: Record<string, string>, status = 'open') =>
    new TicketRepository(t.prisma)
      .insert(t.prisma, org, {
        ticket_id: newUuid(),
        phone_id: phone,
        chat_id: `${randomDigits()}@c.us`,
        subject,
        status,
        priority: 1,
        assignee: null,
        assigned_by: null,
        first_assigned_at: null,
        raised_by: null,
        quoted_message_id: null,
        attached_message_ids: [],
        due_date: null,
        labels: [],
        last_updated_by: null,
        custom_properties: values,
      })
      .then(() => t.prisma.inboxTicket.updateMany({ where: { org_id: org, subject }, data: { created_at: new Date((at += 1000)) } }));

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.p1, w.p2, w.q1] = ['phone-cccccccccccc1', 'phone-cccccccccccc2', 'phone-dddddddddddd1'];
    w.severity = await define(w.org, 'Severity', 'ticket', { property_value_type: 'dropdown', property_value: ['Low', 'High'] });
    w.amount = await define(w.org, 'Refund amount', 'ticket', { property_value_type: 'number' });
    w.urgent = await define(w.org, 'Urgent', 'ticket', { property_value_type: 'boolean' });
    w.due = await define(w.org, 'Promised', 'ticket', { property_value_type: 'date' });
    w.tier = await define(w.org, 'Tier', 'chat');
    w.theirs = await define(w.other, 'Region', 'ticket');
    await ticket(w.org, w.p1, 'one', { [w.severity]: 'High', [w.amount]: '12.50', [w.urgent]: 'true', [w.due]: '2026-12-01' });
    await ticket(w.org, w.p2, 'two', { [w.severity]: 'High' }, 'closed');
    await ticket(w.org, w.p1, 'three', { [w.severity]: 'Low', [w.urgent]: 'false' });
    await ticket(w.org, w.p1, 'four', {});
    await ticket(w.other, w.q1, 'theirs', { [w.theirs]: 'EU', [w.severity]: 'High' });
  });

  it("matches the value by the property's id or name (any case), read as its type, newest first, with the other filters", async () => {
    expect(await ids(ctx(w.org), { custom_property: w.severity, custom_property_value: 'High' })).toEqual(['two', 'one']);
    expect(await ids(ctx(w.org), { custom_property: 'SEVERITY', custom_property_value: 'high' })).toEqual(['two', 'one']);
    expect(await ids(ctx(w.org), { custom_property: 'severity', custom_property_value: 'low' })).toEqual(['three']);
    expect(await ids(ctx(w.org), { custom_property: 'severity', custom_property_value: 'High', status: 'open' })).toEqual(['one']);
    expect(await ids(ctx(w.org), { custom_property: 'refund amount', custom_property_value: ' 12.50 ' })).toEqual(['one']);
    expect(await ids(ctx(w.org), { custom_property: 'urgent', custom_property_value: 'FALSE' })).toEqual(['three']);
    expect(await ids(ctx(w.org), { custom_property: 'promised', custom_property_value: '2026-12-01' })).toEqual(['one']);
    expect(await list(ctx(w.org), { custom_property: 'severity', custom_property_value: 'High', offset: '1', limit: '1' })).toMatchObject({
      from: 2,
      to: 2,
      count: 1,
    });
  });

  it("narrows to the phones in reach and the organization: another organization's tickets of the same value are not listed", async () => {
    expect(await ids(ctx(w.org, [w.p2]), { custom_property: 'severity', custom_property_value: 'High' })).toEqual(['two']);
    expect(await ids(ctx(w.other), { custom_property: 'region', custom_property_value: 'EU' })).toEqual(['theirs']);
    // the other organization's ticket holds our Severity's id with High: it is still not ours
    expect(await ids(ctx(w.org), { custom_property: w.severity, custom_property_value: 'High' })).not.toContain('theirs');
  });

  it("422 on custom_property for an unknown property, another organization's (by id or name) and a chat property", async () => {
    for (const key of ['nope', w.theirs, 'Region', 'tier', w.tier, newUuid()]) {
      expect(Object.keys((await fields(list(ctx(w.org), { custom_property: key, custom_property_value: 'x' }))) ?? {})).toEqual([
        'custom_property',
      ]);
    }
    expect(Object.keys((await fields(list(ctx(w.other), { custom_property: w.severity, custom_property_value: 'High' }))) ?? {})).toEqual([
      'custom_property',
    ]);
  });

  it("422 on custom_property_value for a value not of the property's type", async () => {
    for (const [key, value] of [
      ['severity', 'Medium'],
      ['refund amount', 'lots'],
      ['urgent', 'yes'],
      ['promised', 'someday'],
    ]) {
      expect(await fields(list(ctx(w.org), { custom_property: key, custom_property_value: value }))).toMatchObject({
        custom_property_value: { value },
      });
    }
  });

  it('the contract asks for both or neither, and neither empty', () => {
    const issues = (q: Record<string, string>) => (ListTicketsQuery.safeParse(q).error?.issues ?? []).map((i) => i.path.join('.'));
    expect(issues({ custom_property: 'severity' })).toEqual(['custom_property_value']);
    expect(issues({ custom_property_value: 'High' })).toEqual(['custom_property']);
    expect(issues({ custom_property: ' ', custom_property_value: 'High' })).toEqual(['custom_property']);
    expect(issues({ custom_property: 'severity', custom_property_value: '' })).toEqual(['custom_property_value']);
    expect(issues({ custom_property: 'severity', custom_property_value: 'High' })).toEqual([]);
  });
});
