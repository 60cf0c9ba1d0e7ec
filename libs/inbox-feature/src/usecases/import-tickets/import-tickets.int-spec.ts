import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { CustomPropertyRepository } from '../../repositories/custom-property-repository';
import { TicketRepository } from '../../repositories/ticket-repository';
import { noReach } from '../../testing/no-reach';
import { chatsOf, importCtx, outcomes, phonesOf, type HeldChat } from '../../testing/import-stand-ins';
import { UpdateTicket } from '../update-ticket/update-ticket.usecase';
import { ImportTickets } from './import-tickets.usecase';

/** inbox.v1.import.tickets against Postgres; the chats and phones services are stand-ins over lists. */
describe('import tickets (integration)', () => {
  const t = useTestDatabase('inbox_import_tickets');
  const w: Record<string, string> = {};
  const held: HeldChat[] = [];
  const phones: { org: string; phone: string; number: string | null }[] = [];
  const run = (org: string, items: unknown[]) =>
    new ImportTickets(t.prisma, chatsOf(held), phonesOf(phones)).execute({ ctx: importCtx(org), body: { items } });
  const row = (id: string) => t.prisma.inboxTicket.findUnique({ where: { ticket_id: id } });
  /** A GET /tickets row of the source, ids already ours. */
  const listed = (over: Record<string, unknown> = {}) => ({
    ticket_id: w.t1,
    org_id: newUuid(),
    chat_id: w.chatA,
    subject: 'Refund please',
    status: 'closed',
    priority: 3,
    assignee: 'Amy@Example.com',
    assigned_by: 'tok-1',
    raised_by: 'tok-2',
    quoted_message_id: 'false_x@c.us_Q1',
    due_date: '2024-02-01T00:00:00.000Z',
    first_assigned_at: '2024-01-02T00:00:00.000Z',
    closed_at: '2024-01-05T00:00:00.000Z',
    close_ticket_metadata: { closed_by: 'tok-3', closed_at: '2024-01-05T00:00:00.000Z' },
    custom_properties: { [w.prop]: 'gold' },
    label_ids: { [w.vipLabel]: true, Billing: true },
    is_deleted: false,
    created_at: '2024-01-01T09:00:00.123Z',
    last_updated_at: '2024-01-05T00:00:00.000Z',
    last_updated_by: 'tok-3',
    ...over,
  });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.p1, w.p2, w.q1] = ['phone-imp-ticket-1', 'phone-imp-ticket-2', 'phone-imp-ticket-q'];
    [w.chatA, w.chatB] = [`${randomDigits()}@c.us`, `${randomDigits()}@c.us`];
    held.push(
      { org: w.org, phone: w.p1, chat: w.chatA },
      { org: w.org, phone: w.p2, chat: w.chatB },
      { org: w.other, phone: w.q1, chat: w.chatA },
    );
    phones.push(
      { org: w.org, phone: w.p1, number: null },
      { org: w.org, phone: w.p2, number: null },
      { org: w.other, phone: w.q1, number: null },
    );
    [w.t1, w.t2, w.taken, w.prop, w.vipLabel] = [newUuid(), newUuid(), newUuid(), newUuid(), newUuid()];
    await t.prisma.inboxLabel.create({ data: { label_id: w.vipLabel, org_id: w.org, name: 'vip', color: '#ff0000', type: 'ticket' } });
    await t.prisma.inboxCustomProperty.create({ data: { property_id: w.prop, org_id: w.org, property_name: 'Tier', type: 'ticket' } });
    await t.prisma.inboxTicket.create({
      data: { ticket_id: w.taken, org_id: w.other, phone_id: w.q1, chat_id: w.chatA, subject: 'Theirs' },
    });
  });

  it('creates tickets at their ids with status, priority, people, dates, labels, values and messages as the source has them, and no event', async () => {
    const info = {
      chat: {},
      message: { message_id: 'false_x@c.us_Q2' },
      attached_messages: [{ message_id: 'false_x@c.us_Q2' }, { message_id: 'true_x@c.us_A1' }],
      ticket: {
        ticket_id: w.t2,
        chat_id: w.chatB,
        subject: 'From the info form',
        status: 'open',
        priority: '2',
        ticket_labels: 'vip,urgent',
        ticket_custom_properties: {},
        created_at: '2024-03-03T00:00:00.000Z',
        closed_at: null,
      },
    };
    const r = await run(w.org, [
      { source_id: w.t1, ticket: listed() },
      { source_id: w.t2, ticket: info, phone_id: w.p2 },
    ]);
    expect(r.results).toEqual([
      { source_id: w.t1, target_id: w.t1, outcome: 'created' },
      { source_id: w.t2, target_id: w.t2, outcome: 'created' },
    ]);
    expect(await row(w.t1)).toMatchObject({
      org_id: w.org,
      phone_id: w.p1,
      chat_id: w.chatA,
      subject: 'Refund please',
      status: 'closed',
      priority: 3,
      assignee: 'amy@example.com',
      assigned_by: 'tok-1',
      raised_by: 'tok-2',
      quoted_message_id: 'false_x@c.us_Q1',
      due_date: new Date('2024-02-01T00:00:00.000Z'),
      first_assigned_at: new Date('2024-01-02T00:00:00.000Z'),
      closed_at: new Date('2024-01-05T00:00:00.000Z'),
      closed_by: 'tok-3',
      custom_properties: { [w.prop]: 'gold' },
      labels: ['vip', 'billing'],
      created_at: new Date('2024-01-01T09:00:00.123Z'),
      last_updated_at: new Date('2024-01-05T00:00:00.000Z'),
      last_updated_by: 'tok-3',
      request_hash: null,
      is_deleted: false,
    });
    expect(await row(w.t2)).toMatchObject({
      phone_id: w.p2,
      priority: 2,
      labels: ['vip', 'urgent'],
      quoted_message_id: 'false_x@c.us_Q2',
      attached_message_ids: ['false_x@c.us_Q2', 'true_x@c.us_A1'],
      closed_at: null,
      last_updated_at: new Date('2024-03-03T00:00:00.000Z'),
    });
    expect(await t.prisma.outboxEvent.count({ where: { org_id: w.org } })).toBe(0);
  });

  it('answers the same batch again with skipped and makes nothing', async () => {
    const before = await t.prisma.inboxTicket.count();
    expect(
      outcomes(
        await run(w.org, [
          { source_id: w.t1, ticket: listed() },
          { source_id: w.t1, target_id: w.t1, ticket: listed() },
        ]),
      ),
    ).toEqual(['skipped', 'skipped']);
    expect(await t.prisma.inboxTicket.count()).toBe(before);
  });

  it('updates a ticket changed at the source', async () => {
    const r = await run(w.org, [
      {
        source_id: w.t1,
        ticket: listed({ status: 'open', closed_at: null, close_ticket_metadata: null, last_updated_at: '2024-06-01T00:00:00.000Z' }),
      },
    ]);
    expect(r.results[0]).toMatchObject({ target_id: w.t1, outcome: 'updated' });
    expect(await row(w.t1)).toMatchObject({
      status: 'open',
      closed_at: null,
      closed_by: null,
      last_updated_at: new Date('2024-06-01T00:00:00.000Z'),
      created_at: new Date('2024-01-01T09:00:00.123Z'),
    });
  });

  it('lets UpdateTicket change an imported ticket as any other, with its event', async () => {
    const c = importCtx(w.org);
    const info = await new UpdateTicket(
      new TicketRepository(t.prisma),
      chatsOf(held),
      noReach,
      new CustomPropertyRepository(t.prisma),
    ).execute({
      ctx: c,
      params: { ticket_id: w.t1 },
      body: { status: 'inprogress', labels: ['vip'], custom_properties: { Tier: 'silver' } },
    });
    expect(info.ticket).toMatchObject({
      ticket_id: w.t1,
      status: 'inprogress',
      ticket_labels: 'vip',
      ticket_custom_properties: { [w.prop]: 'silver' },
      created_at: '2024-01-01T09:00:00.123Z',
    });
    expect(await t.prisma.outboxEvent.count({ where: { org_id: w.org, type: 'ticket.updated' } })).toBe(1);
  });

  it("honours the id map's target_id, and gives a new id when the source id is another organization's ticket", async () => {
    const mapped = newUuid();
    const r = await run(w.org, [
      { source_id: 'T-77', target_id: mapped, ticket: listed({ subject: 'Mapped' }) },
      { source_id: w.taken, ticket: listed({ subject: 'Clash' }) },
    ]);
    expect(r.results[0]).toEqual({ source_id: 'T-77', target_id: mapped, outcome: 'created' });
    expect(r.results[1].outcome).toBe('created');
    expect(r.results[1].target_id).not.toBe(w.taken);
    expect(await row(r.results[1].target_id!)).toMatchObject({ org_id: w.org, subject: 'Clash' });
    expect(await row(w.taken)).toMatchObject({ org_id: w.other, subject: 'Theirs', phone_id: w.q1 });
    expect(
      outcomes(await run(w.org, [{ source_id: w.taken, target_id: r.results[1].target_id, ticket: listed({ subject: 'Clash' }) }])),
    ).toEqual(['skipped']);
  });

  it('fails a bad item with its reason while the rest of the batch lands', async () => {
    const good = newUuid();
    const r = await run(w.org, [
      { source_id: 'b1', ticket: listed({ subject: '' }) },
      { source_id: 'b2', ticket: listed({ status: 'pending' }) },
      { source_id: 'b3', ticket: listed({ chat_id: `${randomDigits()}@c.us` }) },
      { source_id: 'b4', ticket: listed({ custom_properties: { [newUuid()]: 'x' } }) },
      { source_id: 'b5', ticket: 'nope' },
      { source_id: good, ticket: listed({ ticket_id: good, subject: 'Fine' }) },
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results[0].reason).toMatch(/subject/);
    expect(r.results[1].reason).toMatch(/status/);
    expect(r.results[2].reason).toMatch(/no phone of this organization holds the chat/);
    expect(r.results[3].reason).toMatch(/not a ticket custom property/);
    expect(r.results[4].reason).toMatch(/ticket must be an object/);
    expect(await row(good)).toMatchObject({ subject: 'Fine', org_id: w.org });
  });

  it("never reads or changes another organization's tickets, and takes no phone of theirs", async () => {
    const theirs = await t.prisma.inboxTicket.findMany({ where: { org_id: w.other } });
    const r = await run(w.org, [
      { source_id: w.taken, target_id: w.taken, ticket: listed({ subject: 'Overwrite?' }) },
      { source_id: newUuid(), phone_id: w.q1, ticket: listed({ subject: 'Their phone' }) },
    ]);
    expect(r.results.map((x) => x.target_id)).not.toContain(w.taken);
    expect((await row(r.results[1].target_id!))?.phone_id).toBe(w.p1);
    expect(await t.prisma.inboxTicket.findMany({ where: { org_id: w.other } })).toEqual(theirs);
  });
});
