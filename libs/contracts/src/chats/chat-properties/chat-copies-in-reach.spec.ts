import type { RequestContext } from '../../common/request-context';
import type { RpcCaller } from '../../rpc/rpc-caller';
import { ChatCopiesInReachRpc, ChatsInReachRpc, type ChatCopy } from './chat-properties.contract';
import { chatCopiesInReach, chatsOutOfReach } from './chat-copies-in-reach';

const ctx: RequestContext = {
  org_id: '00000000-0000-4000-8000-000000000001',
  token_id: '00000000-0000-4000-8000-000000000002',
  phone_scope: null,
  phone: null,
};

/** The chats service as a fake: copies of chats in `outside` are out of reach; every call recorded. */
function chats(outside: string[]) {
  const calls: { subject: string; copies: ChatCopy[] }[] = [];
  const rpc = {
    call: async (contract: { subject: string }, req: { ctx: RequestContext; body: { copies: ChatCopy[] } }) => {
      expect(req.ctx).toBe(ctx);
      calls.push({ subject: contract.subject, copies: req.body.copies });
      return { reached: req.body.copies.filter((c) => !outside.includes(c.chat_id)) };
    },
  };
  return { calls, rpc: rpc as unknown as RpcCaller };
}

describe('chats.v1.chat.copies-in-reach, the one client', () => {
  it('answers the copies within reach, in one call for up to 1000', async () => {
    const { calls, rpc } = chats(['b@c.us']);
    const copies = [
      { phone_id: 'p1', chat_id: 'a@c.us' },
      { phone_id: 'p1', chat_id: 'b@c.us' },
      { phone_id: 'p2', chat_id: 'a@c.us' },
    ];
    expect(await chatCopiesInReach(rpc, ctx, copies)).toEqual([
      { phone_id: 'p1', chat_id: 'a@c.us' },
      { phone_id: 'p2', chat_id: 'a@c.us' },
    ]);
    expect(calls).toEqual([{ subject: ChatCopiesInReachRpc.subject, copies }]);
  });

  it('asks in calls of up to 1000 copies, in order, and joins the answers', async () => {
    const { calls, rpc } = chats(['7@c.us', '1500@c.us']);
    const copies = Array.from({ length: 2500 }, (_, i) => ({ phone_id: 'p1', chat_id: `${i}@c.us` }));
    const reached = await chatCopiesInReach(rpc, ctx, copies);
    expect(calls.map((c) => c.copies.length)).toEqual([1000, 1000, 500]);
    expect(calls.map((c) => c.copies[0].chat_id)).toEqual(['0@c.us', '1000@c.us', '2000@c.us']);
    expect(reached).toHaveLength(2498);
    expect(reached.map((c) => c.chat_id)).not.toContain('1500@c.us');
  });

  it('no copies: no call', async () => {
    const { calls, rpc } = chats([]);
    expect(await chatCopiesInReach(rpc, ctx, [])).toEqual([]);
    expect(calls).toEqual([]);
  });
});

/** The chats service's in-reach as a fake: chats in `outside` are missing; every call's body recorded. */
function inReach(outside: string[]) {
  const calls: { subject: string; body: { chat_ids: string[]; to_send?: boolean } }[] = [];
  const rpc = {
    call: async (contract: { subject: string }, req: { ctx: RequestContext; body: { chat_ids: string[]; to_send?: boolean } }) => {
      expect(req.ctx).toBe(ctx);
      calls.push({ subject: contract.subject, body: req.body });
      return { missing: req.body.chat_ids.filter((id) => outside.includes(id)) };
    },
  };
  return { calls, rpc: rpc as unknown as RpcCaller };
}

describe('chats.v1.chat.in-reach, the one client', () => {
  it('answers the chats out of reach, each id asked once', async () => {
    const { calls, rpc } = inReach(['b@c.us']);
    expect(await chatsOutOfReach(rpc, ctx, ['a@c.us', 'b@c.us', 'a@c.us'])).toEqual(['b@c.us']);
    expect(calls).toEqual([{ subject: ChatsInReachRpc.subject, body: { chat_ids: ['a@c.us', 'b@c.us'] } }]);
  });

  it('asks as a send when told to, in calls of up to 1000 ids', async () => {
    const { calls, rpc } = inReach(['1999@c.us']);
    const ids = Array.from({ length: 2001 }, (_, i) => `${i}@c.us`);
    expect(await chatsOutOfReach(rpc, ctx, ids, { toSend: true })).toEqual(['1999@c.us']);
    expect(calls.map((c) => [c.body.chat_ids.length, c.body.to_send])).toEqual([
      [1000, true],
      [1000, true],
      [1, true],
    ]);
  });

  it('no ids: no call', async () => {
    const { calls, rpc } = inReach([]);
    expect(await chatsOutOfReach(rpc, ctx, [])).toEqual([]);
    expect(calls).toEqual([]);
  });
});
