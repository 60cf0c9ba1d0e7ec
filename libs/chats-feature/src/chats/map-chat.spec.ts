import type { ChatViewRow } from '../rows/chat-rows';
import { mapChat, mapChatView } from './map-chat';

const row = (over: Partial<ChatViewRow> = {}): ChatViewRow => ({
  org_id: '0b6f7f0e-3c57-4f3e-9d64-7a3f1f2b9c11',
  phone_id: 'phone-b',
  chat_id: '120363000000000001@g.us',
  chat_name: 'Stock count',
  chat_type: 'group',
  org_phone: '15550002222@c.us',
  created_at: new Date('2026-11-20T10:00:00.000Z'),
  updated_at: new Date('2026-11-21T10:00:00.000Z'),
  latest_message_id: null,
  latest_message_at: new Date('2026-11-21T09:00:00.000Z'),
  activity_at: new Date('2026-11-21T09:00:00.000Z'),
  group_description: null,
  info_admins_only: false,
  messages_admins_only: false,
  add_members_admins_only: null,
  copies: [
    { phone_id: 'phone-a', org_phone: null, unread_count: 4, latest_message_at: null },
    { phone_id: 'phone-b', org_phone: '15550002222@c.us', unread_count: 2, latest_message_at: new Date('2026-11-21T09:00:00.000Z') },
  ],
  properties: { assigned_to: null, custom_properties: {}, override_chat_access: null, label_ids: [] },
  ...over,
});

describe('mapChatView', () => {
  it('says what mapChat says of the representative copy, except the fields the view fills in', () => {
    const r = row();
    const chat = mapChat({ ...r, org_phone: r.org_phone ?? '' });
    const view = mapChatView(r, null, []);
    const filled = new Set(['unread_count', 'member_count', 'latest_message']);
    for (const [key, value] of Object.entries(chat)) {
      if (!filled.has(key)) expect([key, view[key as keyof typeof view]]).toEqual([key, value]);
    }
  });

  it('keys per-phone maps by number (phone_id while unpaired) and takes the largest unread count', () => {
    const view = mapChatView(row(), null, null);
    expect(view.unread_count).toEqual({ 'phone-a': 4, '15550002222@c.us': 2 });
    expect(view.latest_message_timestamp_map).toEqual({ 'phone-a': null, '15550002222@c.us': Date.parse('2026-11-21T09:00:00.000Z') });
    expect(view.chat_org_phones).toEqual(['phone-a', '15550002222@c.us']);
    expect(view.message_unread_count).toBe(4);
    expect(view.members).toBeNull();
    expect(view.member_count).toBeNull();
  });

  it('reads no unread messages as 0, and an unknown stored type as unknown', () => {
    const view = mapChatView(
      row({ chat_type: 'broadcast', copies: [{ phone_id: 'phone-b', org_phone: null, unread_count: 0, latest_message_at: null }] }),
      null,
      null,
    );
    expect(view.message_unread_count).toBe(0);
    expect(view.chat_type).toBe('unknown');
    expect(view.is_group).toBe(false);
  });

  it("renders the organization's team-inbox values: label ids as a map, custom properties, assignee, access overrides", () => {
    const view = mapChatView(
      row({
        properties: {
          assigned_to: 'amy@example.com',
          custom_properties: { p1: 'gold' },
          override_chat_access: { 'bob@example.com': true },
          label_ids: ['l1', 'l2'],
        },
      }),
      null,
      null,
    );
    expect(view).toMatchObject({
      label_ids: { l1: true, l2: true },
      custom_properties: { p1: 'gold' },
      assigned_to: 'amy@example.com',
      override_chat_access: { 'bob@example.com': true },
    });
    expect(mapChatView(row(), null, null)).toMatchObject({
      label_ids: {},
      custom_properties: {},
      assigned_to: null,
      override_chat_access: null,
    });
  });
});
