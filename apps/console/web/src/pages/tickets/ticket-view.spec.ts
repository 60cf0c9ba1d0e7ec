import { priorityText, ticketChanges, ticketsPath } from './ticket-view';

describe('console tickets page logic', () => {
  it('filters by status and assignee only when given', () => {
    expect(ticketsPath({})).toBe('/tickets?limit=200');
    expect(ticketsPath({ status: 'open', assignee: ' amy@example.com ' })).toBe(
      '/tickets?limit=200&status=open&assignee=amy%40example.com',
    );
  });
  it('sends the changed fields only; an emptied assignee clears it', () => {
    const before = { status: 'open', priority: 1, assignee: 'amy@example.com' };
    expect(ticketChanges(before, { status: 'open', priority: '1', assignee: 'AMY@example.com' })).toBeNull();
    expect(ticketChanges(before, { status: 'closed', priority: '3', assignee: '' })).toEqual({
      status: 'closed',
      priority: 3,
      assignee: null,
    });
    expect(ticketChanges({ ...before, assignee: null }, { status: 'open', priority: '1', assignee: 'bo@example.com' })).toEqual({
      assignee: 'bo@example.com',
    });
  });
  it('names priorities', () => {
    expect([1, 2, 3, 4, null].map(priorityText)).toEqual(['low', 'medium', 'high', 'urgent', 'none']);
  });
});
