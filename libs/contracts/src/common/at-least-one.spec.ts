import { UpdateChatBody } from '../inbox/update-chat/update-chat.contract';
import { UpdateLabelBody } from '../inbox/update-label/update-label.contract';

describe('atLeastOneOf', () => {
  it('an empty body fails once per field, each naming them all', () => {
    const r = UpdateLabelBody.safeParse({});
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'At least one of name, color is required: name is missing'],
      ['color', 'At least one of name, color is required: color is missing'],
    ]);
  });

  it('one field is enough, and a null counts as given (it clears the field)', () => {
    expect(UpdateLabelBody.safeParse({ color: '#aabbcc' }).success).toBe(true);
    expect(UpdateChatBody.safeParse({ assigned_to: null }).success).toBe(true);
    expect(UpdateChatBody.safeParse({ other: 1 }).error?.issues.map((i) => i.path[0])).toEqual([
      'labels',
      'custom_properties',
      'assigned_to',
    ]);
  });
});
