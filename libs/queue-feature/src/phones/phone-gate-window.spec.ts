import { ServiceError, type SessionAnswer, type SessionCommand } from '@mapi/contracts';
import { PhoneGate } from './phone-gate';

/** POST /message/send asks the phone's session whether a free-form message to the chat would be refused (a Cloud API phone's 24-hour window). */
describe('PhoneGate.requireOpenWindow', () => {
  const gate = (answer: (cmd: SessionCommand) => Promise<SessionAnswer | 'no-session'>) => {
    const asked: SessionCommand[] = [];
    const g = new PhoneGate(async () => [], {
      send: (_phone, cmd) => {
        asked.push(cmd);
        return answer(cmd);
      },
    });
    return { g, asked };
  };

  it('is the 422 naming the rule on body.chat_id when the session refuses', async () => {
    const rule = 'The 24-hour customer-service window of this chat is closed (…): a Cloud API phone may send it only an approved template';
    const { g, asked } = gate(async () => ({ ok: false, reason: 'refused', message: rule }));
    const err = await g.requireOpenWindow('p1', '15551234567@c.us').catch((e) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.toEnvelope()).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 422,
      message: rule,
      fields: { 'body.chat_id': { message: rule, value: '15551234567@c.us' } },
    });
    expect(asked).toEqual([{ cmd: 'send-window', chat_id: '15551234567@c.us' }]);
  });

  it('lets the send be queued on any other answer: ok, no session, an error, or none within 300 ms', async () => {
    for (const answer of [{ ok: true }, 'no-session', { ok: false, reason: 'error', message: 'Malformed session command' }] as const)
      await expect(gate(async () => answer).g.requireOpenWindow('p1', '1@c.us')).resolves.toBeUndefined();
    const started = Date.now();
    await expect(gate(() => new Promise(() => undefined)).g.requireOpenWindow('p1', '1@c.us')).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
