import { readSessionAnswer, readSessionCommand, sessionSubject } from './session-command';

describe('session commands (the contract between senders and the session that runs a phone)', () => {
  it('are sent on <ns>.phones.v1.session.<phone_id>', () => {
    expect(sessionSubject('prod', 'phone-abc123abc123')).toBe('prod.phones.v1.session.phone-abc123abc123');
  });

  it.each([
    { cmd: 'ping' },
    { cmd: 'resync' },
    { cmd: 'group-participants', chat_id: '1203@g.us', participants: ['1@c.us'], action: 'demote' },
    {
      cmd: 'send',
      chat_id: '1@c.us',
      content: { text: 'hi', poll: { name: 'Q', options: ['a', 'b'], allow_multiple: false } },
      sent_message_id: 'j1',
    },
    { cmd: 'pairing-code', number: '15550001111' },
  ])('reads a valid command %p as itself', (command) => {
    expect(readSessionCommand(command)).toEqual({ command });
  });

  it.each([
    ['an unknown command', { cmd: 'explode' }, 'command.cmd'],
    ['a send without content', { cmd: 'send', chat_id: '1@c.us', sent_message_id: 'j1' }, 'command.content'],
    [
      'a participant action outside the four',
      { cmd: 'group-participants', chat_id: 'g', participants: ['1@c.us'], action: 'ban' },
      'command.action',
    ],
    ['no object at all', 'ping', 'command'],
  ])('answers %s with an error that names the field', (_what, raw, field) => {
    const read = readSessionCommand(raw);
    expect(read).toEqual({
      answer: { ok: false, reason: 'error', message: expect.stringContaining(`Malformed session command: ${field}`) },
    });
  });

  it('reads answers, and a malformed answer as the session failing', () => {
    expect(readSessionAnswer({ ok: true, pairing_code: 'ABCD-1234' })).toEqual({ ok: true, pairing_code: 'ABCD-1234' });
    expect(readSessionAnswer({ ok: false, reason: 'disconnected', message: 'off' })).toEqual({
      ok: false,
      reason: 'disconnected',
      message: 'off',
    });
    expect(readSessionAnswer({ ok: true, results: [{ id: '1@c.us', status: '500' }] })).toMatchObject({
      ok: false,
      reason: 'error',
      message: expect.stringContaining('answer.results.0.status'),
    });
  });
});
