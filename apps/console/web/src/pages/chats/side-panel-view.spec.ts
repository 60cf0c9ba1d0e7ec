import type { Label } from '../../api/types';
import {
  assigneeChoices,
  chatLabelNames,
  chatProperties,
  contactIdOf,
  contactPatch,
  dueDateInput,
  labelList,
  labelsWith,
  optionsOf,
  orderTickets,
  propertyChanges,
  subjectFrom,
  ticketLabelText,
  ticketPatch,
  type CustomPropertyDef,
} from './side-panel-view';

const label = (label_id: string, name: string): Label => ({ label_id, name, color: '#123456', type: 'chat', created_at: '' });
const def = (property_id: string, property_name: string, extra: Partial<CustomPropertyDef> = {}): CustomPropertyDef => ({
  property_id,
  property_name,
  property_value_type: 'text',
  property_value: null,
  is_required: false,
  type: 'chat',
  ...extra,
});

describe('side panel view', () => {
  it('names the chat labels from the catalogue (lower case, sorted; unknown and false ids left out)', () => {
    const catalogue = new Map([
      ['l1', label('l1', 'VIP')],
      ['l2', label('l2', 'billing')],
    ]);
    expect(chatLabelNames({ l1: true, l2: true, l3: true, l4: false }, catalogue)).toEqual(['billing', 'vip']);
    expect(chatLabelNames(null, catalogue)).toEqual([]);
  });

  it('names a ticket’s labels: keys are names, or ids the catalogue knows', () => {
    const catalogue = new Map([['l1', label('l1', 'Refund')]]);
    expect(ticketLabelText({ damage: true, courier: true, old: false }, catalogue)).toBe('courier,damage');
    expect(ticketLabelText({ l1: true, refund: true }, catalogue)).toBe('refund');
    expect(ticketLabelText(null, catalogue)).toBe('');
  });

  it('adds and removes a label by name, case-insensitively, without repeats', () => {
    expect(labelsWith(['billing'], ' VIP ', true)).toBe('billing,vip');
    expect(labelsWith(['billing', 'vip'], 'vip', true)).toBe('billing,vip');
    expect(labelsWith(['billing', 'vip'], 'VIP', false)).toBe('billing');
    expect(labelsWith(['vip'], 'vip', false)).toBe('');
  });

  it('reads a dropdown’s options and the chat’s property values (chat properties only, by id or name)', () => {
    expect(optionsOf({ property_value: ' gold, Silver ,,gold ' })).toEqual(['gold', 'Silver']);
    expect(optionsOf({ property_value: null })).toEqual([]);
    const defs = [def('p1', 'Plan'), def('p2', 'Seats', { property_value_type: 'number' }), def('p3', 'Ticket only', { type: 'ticket' })];
    expect(chatProperties(defs, { p1: 'gold', Seats: 5 }).map((p) => [p.def.property_id, p.value])).toEqual([
      ['p1', 'gold'],
      ['p2', '5'],
    ]);
    expect(chatProperties(defs, null).map((p) => p.value)).toEqual(['', '']);
    expect(chatProperties(defs, { p3: 'DHL' }, 'ticket').map((p) => [p.def.property_name, p.value])).toEqual([['Ticket only', 'DHL']]);
  });

  it('sends only the changed property values, an emptied one as null', () => {
    const before = chatProperties([def('p1', 'Plan'), def('p2', 'Seats')], { p1: 'gold', p2: '5' });
    expect(propertyChanges(before, { p1: 'gold', p2: '5' })).toBeNull();
    expect(propertyChanges(before, { p1: ' silver ', p2: '' })).toEqual({ p1: 'silver', p2: null });
    expect(propertyChanges(before, {})).toBeNull();
  });

  it('patches only the ticket fields changed; labels compared as sets; an emptied assignee or due date clears', () => {
    const t = {
      status: 'open',
      priority: 1,
      assignee: 'ana@example.com',
      due_date: '2026-12-01T00:00:00.000Z',
      ticket_labels: 'refund,urgent',
    };
    const same = { status: 'open', priority: '1', assignee: 'ANA@example.com ', due_date: '2026-12-01', labels: 'urgent, refund' };
    expect(ticketPatch(t, same)).toBeNull();
    expect(ticketPatch(t, { ...same, priority: '3', status: 'inprogress' })).toEqual({ priority: 3, status: 'inprogress' });
    expect(ticketPatch(t, { ...same, assignee: '', due_date: '' })).toEqual({ assignee: null, due_date: null });
    expect(ticketPatch(t, { ...same, due_date: '2026-12-24', labels: 'Refund' })).toEqual({
      due_date: '2026-12-24T00:00:00Z',
      labels: 'refund',
    });
    expect(ticketPatch({ status: null, priority: null, assignee: null }, { ...same, labels: '' })).toEqual({
      status: 'open',
      priority: 1,
      assignee: 'ana@example.com',
      due_date: '2026-12-01T00:00:00Z',
    });
  });

  it('reads due dates and labels for the form', () => {
    expect(dueDateInput('2026-12-01T10:00:00.000Z')).toBe('2026-12-01');
    expect(dueDateInput(null)).toBe('');
    expect(dueDateInput('soon')).toBe('');
    expect(labelList(' A, b,,a ')).toEqual(['a', 'b']);
    expect(labelList(null)).toEqual([]);
  });

  it('makes a subject from a message, the contact id of a one-to-one chat, the assignee choices and the ticket order', () => {
    expect(subjectFrom('Parcel arrived damaged\nphoto attached')).toBe('Parcel arrived damaged');
    expect(subjectFrom('x'.repeat(100))).toHaveLength(80);
    expect(subjectFrom(null)).toBe('');
    expect(contactIdOf('4915550001@c.us')).toBe('4915550001@c.us');
    expect(contactIdOf('1203630@g.us')).toBeNull();
    expect(
      assigneeChoices(
        [
          { email: 'Ben@example.com', is_active: true },
          { email: 'ana@example.com', is_active: true },
          { email: 'gone@example.com', is_active: false },
        ],
        'outside@example.com',
      ),
    ).toEqual(['ana@example.com', 'ben@example.com', 'outside@example.com']);
    const tickets = [
      { id: 'a', status: 'closed', created_at: '2026-11-03' },
      { id: 'b', status: 'open', created_at: '2026-11-01' },
      { id: 'c', status: 'inprogress', created_at: '2026-11-02' },
    ];
    expect(orderTickets(tickets).map((t) => t.id)).toEqual(['c', 'b', 'a']);
  });

  it('patches only the contact fields changed: a trimmed name, labels compared as sets (emptied: cleared)', () => {
    const carla = { contact_name: 'Carla', labels: ['vip', 'wholesale'] };
    expect(contactPatch(carla, { name: ' Carla ', labels: 'Wholesale, VIP,vip' })).toBeNull();
    expect(contactPatch(carla, { name: 'Carla Ruiz', labels: 'vip, wholesale' })).toEqual({ body: { contact_name: 'Carla Ruiz' } });
    expect(contactPatch(carla, { name: 'Carla', labels: 'vip, Returns' })).toEqual({ body: { labels: 'vip,returns' } });
    expect(contactPatch(carla, { name: 'Carla', labels: ' , ' })).toEqual({ body: { labels: '' } });
    // A contact the API has no name for: an empty name is no change; a name given is sent.
    const unnamed = { contact_name: null, labels: [] };
    expect(contactPatch(unnamed, { name: '', labels: '' })).toBeNull();
    expect(contactPatch(unnamed, { name: 'Dan', labels: 'new' })).toEqual({ body: { contact_name: 'Dan', labels: 'new' } });
  });

  it('refuses a contact form the API would refuse: an emptied name, a label over 100 characters', () => {
    const carla = { contact_name: 'Carla', labels: [] };
    expect(contactPatch(carla, { name: '  ', labels: '' })).toEqual({ error: expect.stringContaining('cannot be emptied') });
    expect(contactPatch(carla, { name: 'Carla', labels: `ok, ${'x'.repeat(101)}` })).toEqual({
      error: expect.stringContaining('at most 100 characters'),
    });
    expect(contactPatch(carla, { name: 'Carla', labels: 'x'.repeat(100) })).toEqual({ body: { labels: 'x'.repeat(100) } });
  });
});
