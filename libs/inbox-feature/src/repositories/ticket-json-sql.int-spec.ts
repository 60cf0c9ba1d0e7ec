import { ListTicketsQuery, ListTicketsResponse, ReadyJson, type RequestContext } from '@mapi/contracts';
import { Prisma } from '@mapi/db';
import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { mapTicketJson } from '../map-ticket';
import { noReach } from '../testing/no-reach';
import { ListTickets } from '../usecases/list-tickets/list-tickets.usecase';
import { CustomPropertyRepository } from './custom-property-repository';
import { TICKET_API_KEYS } from './ticket-json-sql';
import { TicketRepository, type TicketJson } from './ticket-repository';

/**
 * GET /tickets' items as Postgres writes them (ticket-json-sql.ts, read by listReady) against
 * JSON.stringify of mapTicketJson over the rows listJson reads: byte for byte, for every kind of
 * ticket and every odd value, item by item and as the whole answer (ReadyJson).
 */
describe('the ticket object written by Postgres = JSON.stringify(mapTicketJson) (integration)', () => {
  const t = useTestDatabase('inbox_ticket_json');
  let repo: TicketRepository;
  let org: string;
  const phone = 'phone-eeeeeeeeeeee1';
  const odd = 'quote " backslash \\ tab \t newline \n \u0001 \u001f \u007f \u2028 é 中文 😀';
  const kinds: { fast: boolean; data: Partial<Prisma.InboxTicketUncheckedCreateInput> }[] = [
    { fast: true, data: {} },
    { fast: true, data: { subject: odd, assignee: 'a@example.com', assigned_by: 'b@example.com', raised_by: odd, quoted_message_id: 'true_1@c.us_X', last_updated_by: 'c@example.com' } },
    { fast: true, data: { status: 'closed', closed_at: new Date('2026-03-01T10:00:00.5Z'), closed_by: 'closer@example.com', due_date: new Date('2026-12-01T18:29:59.123Z'), first_assigned_at: new Date('2026-01-01T00:00:00Z') } },
    { fast: true, data: { status: 'closed', closed_at: new Date('2026-03-01T10:00:00.007Z'), closed_by: null } },
    { fast: true, data: { labels: ['alpha', 'beta', 'a b', 'q"uote'], custom_properties: { zeta: 'z', alpha: 'a', 'Beta': odd, n: 1, b: true, o: { x: 1 }, nul: null, arr: ['x'] } } },
    { fast: true, data: { custom_properties: ['not', 'an', 'object'] } },
    { fast: true, data: { custom_properties: 'a string' } },
    { fast: true, data: { custom_properties: {} , labels: [] } },
    { fast: true, data: { custom_properties: { 'b-1': '1', 'a-2': '2', A: '3', _: '4', '~': '5' } } },
    { fast: true, data: { priority: 4, due_date: new Date('1000-01-01T00:00:00Z'), first_assigned_at: new Date('9999-12-31T23:59:59.999Z') } },
    // left to mapTicketJson
    { fast: false, data: { custom_properties: { '10': 'ten', '2': 'two', b: 'bee' } } },
    { fast: false, data: { custom_properties: { 'é': 'accent', e: 'plain', '😀': 'emoji', '\uffff': 'last' } } },
    { fast: false, data: { labels: ['same', 'other', 'same'] } },
    { fast: false, data: { labels: ['7', 'seven'] } },
    { fast: false, data: { labels: ['étiquette'] } },
    { fast: false, data: { due_date: new Date('0999-06-01T00:00:00Z') } },
  ];
  let at = Date.parse('2026-11-01T00:00:00Z');

  beforeAll(async () => {
    repo = new TicketRepository(t.prisma);
    org = (await createOrg(t.prisma)).id;
    for (const [i, kind] of kinds.entries()) {
      await t.prisma.inboxTicket.create({
        data: { ticket_id: newUuid(), org_id: org, phone_id: phone, chat_id: `${randomDigits()}@c.us`, subject: `kind ${i}`, created_at: new Date((at += 1000)), ...kind.data },
      });
    }
    // numeric values a JSON reader would write otherwise (not strings: left out of custom_properties either way)
    await t.prisma.$executeRaw`UPDATE inbox_tickets SET custom_properties = custom_properties || '{"num": 1.50, "big": 12345678901234567890}'::jsonb WHERE org_id = ${org}::uuid AND subject = 'kind 4'`;
  });

  const ctx = (): RequestContext => ({ org_id: org, token_id: newUuid(), phone_scope: null, phone: null });

  it("lists mapTicketJson's keys in its order", async () => {
    const [row] = await repo.listJson(org, null, {}, 0, 1);
    expect(TICKET_API_KEYS).toEqual(Object.keys(mapTicketJson(row)));
  });

  it('writes every kind of ticket byte for byte as JSON.stringify(mapTicketJson) does, and itself for the common kinds', async () => {
    const mapped = (await repo.listJson(org, null, {}, 0, 2000)).map((row) => JSON.stringify(mapTicketJson(row)));
    const ready = await repo.listReady(org, null, {}, 0, 2000);
    expect(ready).toHaveLength(kinds.length);
    const texts = ready.map((item) => (typeof item === 'string' ? item : JSON.stringify(mapTicketJson(item as TicketJson))));
    for (let i = 0; i < mapped.length; i++) expect(texts[i]).toBe(mapped[i]);
    // newest first: kind i is item length-1-i; the common kinds come as text, the odd ones as rows
    const fast = [...ready].reverse().map((item) => typeof item === 'string');
    expect(fast).toEqual(kinds.map((k) => k.fast));
  });

  it("answers a token's GET /tickets with the bytes JSON.stringify gives for the mapped page, filters and paging applied", async () => {
    const useCase = new ListTickets(repo, noReach, new CustomPropertyRepository(t.prisma));
    for (const query of [{}, { offset: '3', limit: '5' }, { status: 'closed' }, { label: 'alpha' }, { offset: '100' }]) {
      const q = ListTicketsQuery.parse(query);
      const answer = await useCase.execute({ ctx: ctx(), query: q });
      expect(answer).toBeInstanceOf(ReadyJson);
      const rows = await repo.listJson(org, null, { status: q.status, label: q.label }, q.offset, q.limit);
      const count = rows.length;
      const expected = JSON.stringify({ from: count ? q.offset + 1 : q.offset, to: q.offset + count, count, tickets: rows.map(mapTicketJson) });
      expect((answer as ReadyJson).json).toBe(expected);
      expect(ListTicketsResponse.safeParse(JSON.parse(expected)).error?.issues ?? []).toEqual([]);
    }
  });
});
