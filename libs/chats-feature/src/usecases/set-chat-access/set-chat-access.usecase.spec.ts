import { applyChanges } from '../../repositories/chat-properties-repository';
import type { ChatPropertyValues } from '../../rows/chat-rows';

const before = (override: Record<string, unknown> | null): ChatPropertyValues => ({
  assigned_to: null,
  custom_properties: {},
  override_chat_access: override,
  label_ids: [],
});

/** The rule of PATCH /chats/access's values (chats.v1.chat.set-access), without a database. */
describe('override_chat_access changes', () => {
  it('merges: new emails join, given ones change, the others stay; keys sorted', () => {
    const after = applyChanges(before({ 'zed@x.com': true, 'amy@x.com': true }), {
      merge_chat_access: { 'amy@x.com': false, 'ben@x.com': true },
    });
    expect(after.override_chat_access).toEqual({ 'amy@x.com': false, 'ben@x.com': true, 'zed@x.com': true });
    expect(Object.keys(after.override_chat_access ?? {})).toEqual(['amy@x.com', 'ben@x.com', 'zed@x.com']);
  });

  it('merges into none set', () => {
    expect(applyChanges(before(null), { merge_chat_access: { 'amy@x.com': true } }).override_chat_access).toEqual({ 'amy@x.com': true });
  });

  it('replaces: only the given emails remain; an empty object clears to null', () => {
    expect(applyChanges(before({ 'amy@x.com': true }), { override_chat_access: { 'ben@x.com': false } }).override_chat_access).toEqual({
      'ben@x.com': false,
    });
    expect(applyChanges(before({ 'amy@x.com': true }), { override_chat_access: {} }).override_chat_access).toBeNull();
  });

  it('an empty merge keeps what was there', () => {
    expect(applyChanges(before({ 'amy@x.com': true }), { merge_chat_access: {} }).override_chat_access).toEqual({ 'amy@x.com': true });
    expect(applyChanges(before(null), { merge_chat_access: {} }).override_chat_access).toBeNull();
  });
});
