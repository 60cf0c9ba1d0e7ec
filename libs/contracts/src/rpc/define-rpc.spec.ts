import { z } from 'zod';
import { defineRpc, registeredRpcs } from './define-rpc';

const contract = (subject: string) => ({ subject, service: 'chats', request: z.object({}), response: z.object({}) });

describe('defineRpc subject naming: <service>.v<N>.<name>[.<name>...]', () => {
  it.each(['chats.v1.messages.list', 'chats.v2.list', 'knowledge-base.v1.faq.create', 'media.v10.migrate-url.batch'])(
    'accepts %p and returns the contract unchanged',
    (subject) => {
      const c = contract(subject);
      expect(defineRpc(c)).toBe(c);
    },
  );

  it.each([
    ['no version', 'chats.messages.list'],
    ['no name after the version', 'chats.v1'],
    ['a version without a number', 'chats.v.list'],
    ['uppercase letters', 'Chats.v1.messages.list'],
    ['an empty segment', 'chats.v1..list'],
    ['a trailing dot', 'chats.v1.list.'],
    ['a wildcard', 'chats.v1.*'],
    ['a leading digit', '1chats.v1.list'],
    ['spaces', 'chats.v1.list all'],
    ['an empty subject', ''],
  ])('rejects a subject with %s', (_what, subject) => {
    expect(() => defineRpc(contract(subject))).toThrow('must look like <service>.v<N>.<name>');
  });

  it('names the offending subject in the error', () => {
    expect(() => defineRpc(contract('chats.list'))).toThrow('chats.list');
  });
});

describe('the registry of defined RPCs', () => {
  it('lists a defined contract and refuses a second definition of its subject', () => {
    const c = defineRpc(contract('chats.v9.registry-probe'));
    expect(registeredRpcs()).toContain(c);
    expect(() => defineRpc(contract('chats.v9.registry-probe'))).toThrow('chats.v9.registry-probe is defined twice');
    expect(registeredRpcs().filter((r) => r.subject === 'chats.v9.registry-probe')).toEqual([c]);
  });
});
