import { readSessionAnswer, readSessionCommand } from './session-command';

describe('group lifecycle session commands', () => {
  it.each([
    { cmd: 'group-create', subject: 'Launch', participants: ['1@c.us'], settings: { description: 'Go', announce: true } },
    { cmd: 'group-create', subject: 'Bare', participants: [] },
    { cmd: 'group-invite-code', chat_id: '1203@g.us' },
    { cmd: 'group-settings', chat_id: '1203@g.us', settings: { subject: 'New', restrict: false, member_add_admins_only: true } },
    { cmd: 'group-accept-invite', invite_code: 'AbC123' },
    { cmd: 'group-leave', chat_id: '1203@g.us' },
  ])('reads a valid command %p as itself', (command) => {
    expect(readSessionCommand(command)).toEqual({ command });
  });

  it.each([
    ['a create without a subject', { cmd: 'group-create', subject: '', participants: [] }, 'command.subject'],
    ['a setting of the wrong type', { cmd: 'group-settings', chat_id: 'g', settings: { announce: 'yes' } }, 'command.settings.announce'],
    ['an accept without a code', { cmd: 'group-accept-invite' }, 'command.invite_code'],
    ['a leave without a group', { cmd: 'group-leave' }, 'command.chat_id'],
  ])('answers %s with an error that names the field', (_what, raw, field) => {
    expect(readSessionCommand(raw)).toEqual({
      answer: { ok: false, reason: 'error', message: expect.stringContaining(`Malformed session command: ${field}`) },
    });
  });

  it('reads the answers that carry a group or an invite code', () => {
    expect(readSessionAnswer({ ok: true, group: { chat_id: '1203@g.us' } })).toEqual({ ok: true, group: { chat_id: '1203@g.us' } });
    expect(readSessionAnswer({ ok: true, invite_code: 'AbC' })).toEqual({ ok: true, invite_code: 'AbC' });
    expect(readSessionAnswer({ ok: true, group: {} })).toMatchObject({
      ok: false,
      message: expect.stringContaining('answer.group.chat_id'),
    });
  });
});
