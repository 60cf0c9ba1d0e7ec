import { randomUUID } from 'node:crypto';
import type { GroupMetadata } from '../connector/phone-connector';
import { useTestDatabase } from '@mapi/testing';
import { SandboxGroupActions } from './sandbox-group-actions';
import { SandboxNetwork } from './sandbox-network';

/**
 * The sandbox network's group lifecycle in real Postgres: its rules, and the group notifications each
 * member phone receives (one network id per change, one copy per phone, handed on once).
 */
describe('SandboxGroupActions (integration)', () => {
  const t = useTestDatabase('phones_sandbox_groups');
  let network: SandboxNetwork;
  const org = randomUUID();
  const [n1, n2, n3] = ['15551110001', '15551110002', '15551110003'];
  const phone1 = 'phone-groupsaaaaaaaaaa';
  const phone2 = 'phone-groupsbbbbbbbbbb';

  function actionsOf(number: string) {
    const upserts: GroupMetadata[] = [];
    const nudged: string[][] = [];
    const actions = new SandboxGroupActions(network.groups, {
      me: async () => `${number}@c.us`,
      upsert: async (g) => void upserts.push(g),
      nudge: async (ids) => void nudged.push(ids),
    });
    return { actions, upserts, nudged };
  }

  beforeAll(async () => {
    network = new SandboxNetwork(t.prisma);
    for (const [id, number] of [
      [phone1, n1],
      [phone2, n2],
    ]) {
      await network.ensureDevice(id, org);
      await network.setDevice(id, { state: 'CONNECTED', number });
    }
  });

  it('create → invite → accept → settings → leave, with the notifications every member phone receives', async () => {
    const p1 = actionsOf(n1);
    const p2 = actionsOf(n2);
    const group = await p1.actions.create('Launch', [`${n2}@c.us`, `${n3}@c.us`, `${n1}@c.us`], { description: 'Go' });
    expect(group.participants).toEqual([
      { id: `${n1}@c.us`, admin: true },
      { id: `${n2}@c.us`, admin: false },
      { id: `${n3}@c.us`, admin: false },
    ]);
    expect(p1.upserts.map((g) => g.chat_id)).toEqual([group.chat_id]);
    expect(p1.nudged[0].sort()).toEqual([phone1, phone2]);
    const created = await network.groups.pending(phone2);
    expect(created.map((n) => [n.type, n.author, n.recipients, n.body])).toEqual([
      ['create', `${n1}@c.us`, [], 'Launch'],
      ['add', `${n1}@c.us`, [`${n2}@c.us`, `${n3}@c.us`], null],
    ]);
    expect((await network.groups.pending(phone1)).map((n) => n.id)).toEqual(created.map((n) => n.id)); // one network id, a copy per phone
    await network.groups.markDelivered(created.map((n) => n.row));
    expect(await network.groups.pending(phone2)).toEqual([]);

    await expect(p2.actions.inviteCode(group.chat_id)).rejects.toThrow('not an admin');
    await expect(p2.actions.settings(group.chat_id, { subject: 'Mine' })).rejects.toThrow('not an admin');
    const first = await p1.actions.inviteCode(group.chat_id);
    const code = await p1.actions.inviteCode(group.chat_id);
    expect(code).not.toBe(first);

    await p2.actions.leave(group.chat_id);
    await expect(p2.actions.leave(group.chat_id)).rejects.toThrow('not a member');
    await expect(p2.actions.acceptInvite(first)).rejects.toThrow('not valid');
    expect(await p2.actions.acceptInvite(code)).toBe(group.chat_id);
    expect(await p2.actions.acceptInvite(code)).toBe(group.chat_id); // already in: nothing changes
    await p1.actions.settings(group.chat_id, { subject: 'Launch 2', description: 'Go', announce: true, restrict: false });

    const seen = await network.groups.pending(phone2);
    expect(seen.map((n) => [n.type, n.author, n.body])).toEqual([
      ['leave', `${n2}@c.us`, null],
      ['invite', `${n2}@c.us`, null],
      ['subject', `${n1}@c.us`, 'Launch 2'], // description and restrict did not change: no notification
      ['announce', `${n1}@c.us`, 'on'],
    ]);
    expect(await network.groups.find({ group_id: group.chat_id })).toMatchObject({
      subject: 'Launch 2',
      description: 'Go',
      announce: true,
      restrict: false,
      invite_code: code,
    });
  });
});
