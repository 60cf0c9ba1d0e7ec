import { GroupNotificationSchema } from '@mapi/contracts';
import { WAMessageStubType, type WAMessage } from 'baileys';
import { toGroupNotifications } from './baileys-group-notifications';
import { toGroupMetadata } from './baileys-mapping';
import { setup, tick } from './fixtures/connector-harness';
import { GROUP_CREATED, GROUP_JOINED } from './fixtures/fake-socket';
import * as f from './fixtures/library-events';
import { LidMap } from './lid-map';

const ctx = () => {
  const lids = new LidMap();
  lids.learn(f.BOB_LID, f.BOB_PN);
  return { me: f.ME, lids };
};
const stub = (id: string, type: WAMessageStubType, params: string[], participant: string | null = f.ALICE, chat = f.GROUP): WAMessage => ({
  key: { remoteJid: chat, fromMe: false, id, participant: participant ?? undefined },
  messageTimestamp: 1767225600,
  messageStubType: type,
  messageStubParameters: params,
});

describe('Baileys group notifications (stub messages)', () => {
  it('maps participant changes with the network id, the author and the participants as contact ids (LIDs resolved)', () => {
    const out = toGroupNotifications([stub('N1', WAMessageStubType.GROUP_PARTICIPANT_PROMOTE, [f.BOB_LID])], ctx());
    expect(out).toEqual([
      {
        chat_id: f.GROUP,
        id: 'N1',
        type: 'promote',
        author: '15550000002@c.us',
        recipients: ['15550000003@c.us'],
        body: null,
        timestamp: '2026-01-01T00:00:00.000Z',
      },
    ]);
    out.forEach((n) => expect(() => GroupNotificationSchema.parse(n)).not.toThrow());
  });

  it.each([
    [WAMessageStubType.GROUP_PARTICIPANT_ADD, [f.BOB_PN], { type: 'add', recipients: ['15550000003@c.us'], body: null }],
    [WAMessageStubType.GROUP_PARTICIPANT_REMOVE, [f.BOB_PN], { type: 'remove', recipients: ['15550000003@c.us'] }],
    [WAMessageStubType.GROUP_PARTICIPANT_LEAVE, [f.ALICE], { type: 'leave', recipients: ['15550000002@c.us'] }],
    [WAMessageStubType.GROUP_PARTICIPANT_INVITE, [f.ALICE], { type: 'invite', recipients: ['15550000002@c.us'] }],
    [WAMessageStubType.GROUP_PARTICIPANT_DEMOTE, [f.BOB_PN], { type: 'demote' }],
    [WAMessageStubType.GROUP_CHANGE_SUBJECT, ['New name'], { type: 'subject', recipients: [], body: 'New name' }],
    [WAMessageStubType.GROUP_CHANGE_DESCRIPTION, ['About us'], { type: 'description', body: 'About us' }],
    [WAMessageStubType.GROUP_CHANGE_ANNOUNCE, ['on'], { type: 'announce', body: 'on' }],
    [WAMessageStubType.GROUP_CHANGE_RESTRICT, ['false'], { type: 'restrict', body: 'off' }],
    [WAMessageStubType.GROUP_CREATE, ['Team'], { type: 'create', body: 'Team' }],
  ])('maps stub type %s', (type, params, expected) => {
    expect(toGroupNotifications([stub('N2', type, params)], ctx())[0]).toMatchObject(expected);
  });

  it('leaves out what is not a group notification: plain messages, other stubs, stubs outside groups, and stubs without an id', () => {
    const noId = stub('N3', WAMessageStubType.GROUP_PARTICIPANT_ADD, [f.BOB_PN]);
    noId.key.id = undefined;
    expect(
      toGroupNotifications(
        [
          f.textFromAlice,
          stub('N4', WAMessageStubType.GROUP_CHANGE_ICON, []),
          stub('N5', WAMessageStubType.GROUP_PARTICIPANT_ADD, [f.BOB_PN], f.ALICE, f.ALICE),
          noId,
        ],
        ctx(),
      ),
    ).toEqual([]);
  });

  it('the connector hands on the notifications of received stub messages (live and offline replays alike, with their ids)', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('messages.upsert', { messages: [stub('N6', WAMessageStubType.GROUP_PARTICIPANT_LEAVE, [f.ALICE])], type: 'append' });
    await tick();
    expect(t.of('group-notifications.upsert')).toEqual([[expect.objectContaining({ id: 'N6', type: 'leave', chat_id: f.GROUP })]]);
  });
});

describe('Baileys group settings in the groups upsert', () => {
  it('carries the settings the library knows (memberAddMode true: every member may add) and leaves out the rest', () => {
    expect(
      toGroupMetadata({ ...f.groupWithLids, desc: 'About', announce: true, restrict: false, memberAddMode: true }, ctx()),
    ).toMatchObject({
      description: 'About',
      announce: true,
      restrict: false,
      member_add_admins_only: false,
    });
    const bare = toGroupMetadata(
      { ...f.groupWithLids, desc: undefined, announce: undefined, restrict: undefined, memberAddMode: undefined },
      ctx(),
    );
    expect(Object.keys(bare).sort()).toEqual(['chat_id', 'participants', 'subject']);
  });
});

describe('Baileys group lifecycle actions', () => {
  it('creates the group, then applies the settings it was created with, and hands the group on', async () => {
    const t = setup();
    await t.open();
    t.sock().groups = { [GROUP_CREATED]: { ...f.groupWithLids, id: GROUP_CREATED, subject: 'Launch' } };
    const g = await t.connector.groupCreate('Launch', ['15550000002@c.us'], {
      description: 'Go',
      announce: true,
      member_add_admins_only: false,
    });
    expect(g.chat_id).toBe(GROUP_CREATED);
    expect(t.sock().groupCalls).toEqual([
      ['groupCreate', 'Launch', [f.ALICE]],
      ['groupUpdateDescription', GROUP_CREATED, 'Go'],
      ['groupSettingUpdate', GROUP_CREATED, 'announcement'],
      ['groupMemberAddMode', GROUP_CREATED, 'all_member_add'],
    ]);
    await tick();
    expect(
      t
        .of('groups.upsert')
        .flat()
        .map((x) => x.chat_id),
    ).toContain(GROUP_CREATED);
  });

  it("settings map to the library's calls; an invite is a new (revoking) code; accept answers the group; leave leaves", async () => {
    const t = setup();
    await t.open();
    t.sock().groups = { [f.GROUP]: f.groupWithLids, [GROUP_JOINED]: { ...f.groupWithLids, id: GROUP_JOINED } };
    await t.connector.groupSettingsUpdate(f.GROUP, { subject: 'Renamed', restrict: false, announce: false });
    expect(await t.connector.groupInviteCode(f.GROUP)).toMatch(/^CODE/);
    expect(await t.connector.groupAcceptInvite('abc')).toBe(GROUP_JOINED);
    await t.connector.groupLeave(f.GROUP);
    expect(t.sock().groupCalls).toEqual([
      ['groupUpdateSubject', f.GROUP, 'Renamed'],
      ['groupSettingUpdate', f.GROUP, 'not_announcement'],
      ['groupSettingUpdate', f.GROUP, 'unlocked'],
      ['groupRevokeInvite', f.GROUP],
      ['groupAcceptInvite', 'abc'],
      ['groupLeave', f.GROUP],
    ]);
    t.sock().acceptAnswer = undefined;
    await expect(t.connector.groupAcceptInvite('stale')).rejects.toThrow('not valid');
  });
});
