import { joinMessageId, splitMessageId } from './message-id';

describe('splitMessageId', () => {
  it.each([
    ['an individual chat', 'false_14155550100@c.us_3EB0A1B2C3', { from_me: false, chat_id: '14155550100@c.us', unique_id: '3EB0A1B2C3' }],
    ['a group', 'true_1203630-1609@g.us_ABC', { from_me: true, chat_id: '1203630-1609@g.us', unique_id: 'ABC' }],
    [
      'a unique id holding _',
      'false_14155550100@c.us_wamid.a_b-c_d',
      { from_me: false, chat_id: '14155550100@c.us', unique_id: 'wamid.a_b-c_d' },
    ],
    ['a lid chat', 'false_12345@lid_X_Y', { from_me: false, chat_id: '12345@lid', unique_id: 'X_Y' }],
  ])('splits the id of %s after the chat id', (_what, id, parts) => {
    expect(splitMessageId(id)).toEqual(parts);
    expect(joinMessageId(parts)).toBe(id);
  });

  it.each([
    ['a bare unique id', '3EB0A1B2C3'],
    ['a queue id', '0b8e6c1e-6a4e-4f3b-9a51-2f0b1d3c4e5f'],
    ['no unique id', 'false_14155550100@c.us_'],
    ['no chat domain', 'false_14155550100_ABC'],
    ['another from_me', 'yes_14155550100@c.us_ABC'],
  ])('is null for %s', (_what, id) => {
    expect(splitMessageId(id)).toBeNull();
  });
});
