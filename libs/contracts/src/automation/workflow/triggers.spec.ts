import { triggersOf } from './triggers';

describe('triggersOf', () => {
  it('maps our events to the hosted triggers', () => {
    expect(triggersOf('reaction.created')).toEqual(['reaction.added']);
    expect(triggersOf('task.reminder')).toEqual(['task.due']);
    expect(triggersOf('message.flagged')).toEqual(['message.flagged']);
    expect(triggersOf('phone.qr')).toEqual([]);
  });

  it('ticket.closed is a ticket.updated whose status became closed', () => {
    const update = (status: string, previous: Record<string, unknown> | null) =>
      triggersOf('ticket.updated', { data: { ticket_id: 't', status }, previous_attributes: previous });
    expect(update('closed', { status: 'open' })).toEqual(['ticket.updated', 'ticket.closed']);
    expect(update('closed', { status: 'inprogress', priority: 1 })).toEqual(['ticket.updated', 'ticket.closed']);
    // still closed, another field changed; reopened; no previous attributes
    expect(update('closed', { priority: 2 })).toEqual(['ticket.updated']);
    expect(update('open', { status: 'closed' })).toEqual(['ticket.updated']);
    expect(update('closed', null)).toEqual(['ticket.updated']);
    // without the event (a prefilter) the derived trigger is a candidate
    expect(triggersOf('ticket.updated')).toEqual(['ticket.updated', 'ticket.closed']);
  });
});
