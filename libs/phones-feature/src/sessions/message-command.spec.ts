import { readSessionCommand, type SessionCommand } from '@mapi/contracts';
import type { PhoneConnector } from '../connector/phone-connector';
import { answerMessageCommand, type MessageCommand } from './message-command';

const key = { chat_id: '15550001111@c.us', unique_id: '3EB0AAAA', from_me: true, sender_phone: '15550002222@c.us' };

describe('message session commands', () => {
  it('are part of the session contract, and a malformed one is answered as such', () => {
    for (const cmd of [
      { cmd: 'message-edit', key, body: 'new text' },
      { cmd: 'message-delete', key },
      { cmd: 'message-react', key, reaction: '' },
      { cmd: 'message-pin', key, pin: false },
      {
        cmd: 'message-forward',
        key,
        chat_id: '15550003333@c.us',
        content: { text: 'fwd' },
        sent_message_id: 'a8f1f4e0-7f0e-4a4e-9a59-1f2b3c4d5e6f',
      },
    ]) {
      expect(readSessionCommand(cmd)).toEqual({ command: cmd });
    }
    expect(readSessionCommand({ cmd: 'message-edit', key: { ...key, unique_id: '' }, body: 'x' })).toMatchObject({
      answer: { ok: false, reason: 'error', message: expect.stringMatching(/key\.unique_id/) },
    });
    expect(readSessionCommand({ cmd: 'message-pin', key })).toMatchObject({ answer: { ok: false } });
  });

  it('each reaches its connector method, and a forward answers what was sent', async () => {
    const calls: unknown[][] = [];
    const record =
      (name: string) =>
      async (...args: unknown[]) =>
        void calls.push([name, ...args]);
    const connector = {
      editMessage: record('edit'),
      deleteMessage: record('delete'),
      reactToMessage: record('react'),
      pinMessage: record('pin'),
      forwardMessage: async (...args: unknown[]) => {
        calls.push(['forward', ...args]);
        return { unique_id: 'U1', timestamp: '2026-01-01T00:00:00.000Z', duplicate: false };
      },
    } as unknown as PhoneConnector;
    const run = (c: SessionCommand) => answerMessageCommand(connector, c as MessageCommand);
    expect(await run({ cmd: 'message-edit', key, body: 'b' })).toEqual({ ok: true });
    expect(await run({ cmd: 'message-delete', key })).toEqual({ ok: true });
    expect(await run({ cmd: 'message-react', key, reaction: '👍' })).toEqual({ ok: true });
    expect(await run({ cmd: 'message-pin', key, pin: true })).toEqual({ ok: true });
    expect(await run({ cmd: 'message-forward', key, chat_id: 'c@c.us', content: { text: 't' }, sent_message_id: 's' })).toEqual({
      ok: true,
      sent: { unique_id: 'U1', timestamp: '2026-01-01T00:00:00.000Z', duplicate: false },
    });
    expect(calls).toEqual([
      ['edit', key, 'b'],
      ['delete', key],
      ['react', key, '👍'],
      ['pin', key, true],
      ['forward', key, 'c@c.us', { text: 't' }, 's'],
    ]);
  });
});
