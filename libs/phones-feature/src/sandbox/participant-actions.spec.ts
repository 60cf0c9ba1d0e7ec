import { applyParticipantAction } from './participant-actions';

const me = '100@c.us';
const group = (meAdmin = true) => [
  { id: me, admin: meAdmin },
  { id: '200@c.us', admin: true },
  { id: '300@c.us', admin: false },
];

describe("applyParticipantAction (the sandbox network's group rules)", () => {
  it('demotes admins, and says 409 for a member who is not an admin and 404 for a stranger', () => {
    const { next, results } = applyParticipantAction(group(), me, ['200@c.us', '300@c.us', '400@c.us'], 'demote');
    expect(results).toEqual([
      { id: '200@c.us', status: '200' },
      { id: '300@c.us', status: '409' },
      { id: '400@c.us', status: '404' },
    ]);
    expect(next.find((p) => p.id === '200@c.us')?.admin).toBe(false);
  });

  it('promotes, adds and removes with the same per-participant outcomes', () => {
    expect(applyParticipantAction(group(), me, ['300@c.us', '200@c.us'], 'promote').results.map((r) => r.status)).toEqual(['200', '409']);
    const added = applyParticipantAction(group(), me, ['400@c.us', '300@c.us'], 'add');
    expect(added.results.map((r) => r.status)).toEqual(['200', '409']);
    expect(added.next.map((p) => p.id)).toContain('400@c.us');
    const removed = applyParticipantAction(group(), me, ['300@c.us', '999@c.us'], 'remove');
    expect(removed.results.map((r) => r.status)).toEqual(['200', '404']);
    expect(removed.next.map((p) => p.id)).not.toContain('300@c.us');
  });

  it('refuses everything (403) when the acting phone is not an admin, changing nothing', () => {
    const before = group(false);
    const { next, results } = applyParticipantAction(before, me, ['200@c.us'], 'demote');
    expect(results).toEqual([{ id: '200@c.us', status: '403' }]);
    expect(next).toEqual(before);
  });

  it('does not change the group it was given', () => {
    const before = group();
    applyParticipantAction(before, me, ['200@c.us'], 'demote');
    expect(before[1].admin).toBe(true);
  });
});
