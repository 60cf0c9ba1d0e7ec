import { ServiceError, type RequestContext } from '@mapi/contracts';
import { jobsReachOverRpc, sendReachOverRpc } from './member-reach';

const base: RequestContext = {
  org_id: '00000000-0000-4000-8000-000000000001',
  token_id: '00000000-0000-4000-8000-000000000002',
  phone_scope: null,
  phone: null,
};
const as = (role: 'member' | 'admin' | 'owner'): RequestContext => ({
  ...base,
  member: {
    member_id: '00000000-0000-4000-8000-000000000003',
    session_id: '00000000-0000-4000-8000-000000000004',
    email: 'lea@example.com',
    role,
    label_ids: ['vip'],
  },
});

/** The chats service's in-reach as the queue sees it: `outside` are missing; every call recorded. */
function chats(outside: string[]) {
  const calls: { chat_ids: string[]; to_send?: boolean }[] = [];
  const rpc = {
    call: async (_rpc: unknown, req: any) => (
      calls.push(req.body),
      { missing: req.body.chat_ids.filter((id: string) => outside.includes(id)) }
    ),
  };
  return { calls, reach: sendReachOverRpc(rpc as never) };
}

describe("a member's sends (queue)", () => {
  it('a chat outside reach is 404 "Chat not found"; chats within reach pass; asked as a send', async () => {
    const { calls, reach } = chats(['b@c.us']);
    await expect(reach(as('member'), ['a@c.us'])).resolves.toBeUndefined();
    const err = await reach(as('member'), ['a@c.us', 'b@c.us']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ status: 404, message: 'Chat not found' });
    expect(calls).toEqual([
      { chat_ids: ['a@c.us'], to_send: true },
      { chat_ids: ['a@c.us', 'b@c.us'], to_send: true },
    ]);
  });

  it('asks in chunks of 1000 distinct chats (a broadcast)', async () => {
    const { calls, reach } = chats([]);
    await reach(as('member'), [...Array.from({ length: 2500 }, (_, i) => `${i}@c.us`), '0@c.us']);
    expect(calls.map((c) => c.chat_ids.length)).toEqual([1000, 1000, 500]);
  });

  it('tokens, owners and admins: phones only, the chats service is not asked', async () => {
    const { calls, reach } = chats(['b@c.us']);
    for (const c of [base, as('admin'), as('owner')]) await expect(reach(c, ['b@c.us'])).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe("a member's job listings (queue)", () => {
  const copies = (outside: string[]) => {
    const calls: { copies: { phone_id: string; chat_id: string }[] }[] = [];
    const rpc = {
      call: async (_rpc: unknown, req: any) => (
        calls.push(req.body),
        { reached: req.body.copies.filter((c: any) => !outside.includes(c.chat_id)) }
      ),
    };
    return { calls, reach: jobsReachOverRpc(rpc as never) };
  };

  it('answers the chats within reach of the phone, asking once per 1000 distinct chats', async () => {
    const { calls, reach } = copies(['b@c.us']);
    expect(await reach(as('member'), 'p1', ['a@c.us', 'b@c.us', 'a@c.us'])).toEqual(new Set(['a@c.us']));
    expect(calls).toEqual([
      {
        copies: [
          { phone_id: 'p1', chat_id: 'a@c.us' },
          { phone_id: 'p1', chat_id: 'b@c.us' },
        ],
      },
    ]);
    await reach(
      as('member'),
      'p1',
      Array.from({ length: 1500 }, (_, i) => `${i}@c.us`),
    );
    expect(calls.slice(1).map((c) => c.copies.length)).toEqual([1000, 500]);
  });

  it('tokens, owners and admins: null (no narrowing), the chats service is not asked', async () => {
    const { calls, reach } = copies(['b@c.us']);
    for (const c of [base, as('admin'), as('owner')]) expect(await reach(c, 'p1', ['b@c.us'])).toBeNull();
    expect(calls).toEqual([]);
  });
});
