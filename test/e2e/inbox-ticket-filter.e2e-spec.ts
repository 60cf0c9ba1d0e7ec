import { ListTicketsResponse } from '@mapi/contracts';
import { randomDigits } from '@mapi/testing';
import { client, expect422 } from './support/http';
import { startStack, type Stack } from './support/stack';
import { twoOrganizations } from './support/two-organizations';

/**
 * GET /tickets by a ticket custom property value, through the gateway (issue 17): custom_property (id or
 * name) + custom_property_value, read as the property's type; the 422s in the envelope on the query field
 * that is wrong; another organization's tickets and properties never answer. Gateway, chats, phones, inbox
 * as processes.
 */
describe('GET /tickets by a custom property value', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];
  const subjects = async (c: ReturnType<typeof client>, query: string) => {
    const res = await c.get(`/tickets?${query}`);
    expect(res.status).toBe(200);
    expect(ListTicketsResponse.safeParse(res.body).success).toBe(true);
    return res.body.tickets.map((x: any) => x.subject);
  };

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
    ({ api, other } = w);
    w.severity = (
      await api.post('/custom-properties/create', {
        property_name: 'Severity',
        type: 'ticket',
        property_value_type: 'dropdown',
        property_value: 'Low,High',
      })
    ).body.property_id;
    w.amount = (
      await api.post('/custom-properties/create', { property_name: 'Refund amount', type: 'ticket', property_value_type: 'number' })
    ).body.property_id;
    w.theirs = (
      await other.post('/custom-properties/create', {
        property_name: 'Severity',
        type: 'ticket',
        property_value_type: 'dropdown',
        property_value: 'Low,High',
      })
    ).body.property_id;
    expect(
      (
        await api.post('/tickets/create', {
          chat_id: chatA,
          subject: 'high A',
          custom_properties: { severity: 'High', 'refund amount': '12.50' },
        })
      ).status,
    ).toBe(200);
    expect((await api.post('/tickets/create', { chat_id: chatB, subject: 'low B', custom_properties: { severity: 'low' } })).status).toBe(
      200,
    );
    expect(
      (await api.post('/tickets/create', { chat_id: chatB, subject: 'high B', custom_properties: { severity: 'HIGH' }, status: 'closed' }))
        .status,
    ).toBe(200);
    expect(
      (await other.post('/tickets/create', { chat_id: chatA, subject: 'theirs', custom_properties: { severity: 'High' } })).status,
    ).toBe(200);
  }, 180_000);

  afterAll(() => stack?.stop(), 60_000);

  it("filters by the property's name (any case) or id, with the other filters, newest first", async () => {
    expect(await subjects(api, 'custom_property=severity&custom_property_value=high')).toEqual(['high B', 'high A']);
    expect(await subjects(api, `custom_property=${w.severity}&custom_property_value=High&status=open`)).toEqual(['high A']);
    expect(await subjects(api, 'custom_property=Refund%20amount&custom_property_value=12.50')).toEqual(['high A']);
    expect(await subjects(api, `custom_property=severity&custom_property_value=High&chat_id=${bob}`)).toEqual(['high B']);
  });

  it('another organization sees only its own tickets, through its own property of the same name', async () => {
    expect(await subjects(other, 'custom_property=severity&custom_property_value=High')).toEqual(['theirs']);
    expect422(await other.get(`/tickets?custom_property=${w.severity}&custom_property_value=High`), 'custom_property');
    expect422(await api.get(`/tickets?custom_property=${w.theirs}&custom_property_value=High`), 'custom_property');
  });

  it('422 in the envelope: unknown property, a value not of its type, one without the other', async () => {
    expect422(await api.get('/tickets?custom_property=nope&custom_property_value=x'), 'custom_property');
    expect422(await api.get('/tickets?custom_property=severity&custom_property_value=Medium'), 'custom_property_value', /one of Low, High/);
    expect422(await api.get('/tickets?custom_property=refund%20amount&custom_property_value=lots'), 'custom_property_value', /number/);
    expect422(await api.get('/tickets?custom_property=severity'), 'custom_property_value');
    expect422(await api.get('/tickets?custom_property_value=High'), 'custom_property');
  });
});
