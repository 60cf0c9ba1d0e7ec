import { randomUUID } from 'node:crypto';
import { TokenNamesRpc, tokenNames, type RequestContext, type RpcCaller } from '@mapi/contracts';
import { createOrg, createToken, useTestDatabase } from '@mapi/testing';
import { TokenNames } from './token-names.usecase';

const t = useTestDatabase('token_names');

/**
 * members.v1.tokens.names against Postgres: the names of the organization's tokens (revoked ones too) among
 * the ids asked, never another organization's; its client asks only UUID-shaped keys (emails are not tokens).
 */
describe('token names for analytics (integration)', () => {
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: randomUUID(), phone_scope: null, phone: null });
  const names = (org: string, ids: string[]) =>
    new TokenNames(t.prisma).execute(TokenNamesRpc.request.parse({ ctx: ctx(org), body: { ids } }));

  it("answers the organization's token names only, revoked ones included", async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    const live = await createToken(t.prisma, org);
    const revoked = await createToken(t.prisma, org, { revoked: true });
    const theirs = await createToken(t.prisma, other);
    await t.prisma.apiToken.update({ where: { id: live.id }, data: { name: 'Order bot' } });
    const answer = await names(org, [live.id, revoked.id, theirs.id, randomUUID()]);
    expect([...answer.tokens].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { id: live.id, name: 'Order bot' },
      { id: revoked.id, name: 'test token' },
    ]);
    expect((await names(other, [live.id])).tokens).toEqual([]);
    expect(TokenNamesRpc.request.safeParse({ ctx: ctx(org), body: { ids: ['ana@example.com'] } }).success).toBe(false);

    // the client: emails are not asked, no call without an id; the answer as a map
    const calls: unknown[] = [];
    const rpc = {
      call: async (_c: unknown, req: Parameters<TokenNames['execute']>[0]) => (
        calls.push(req.body.ids),
        new TokenNames(t.prisma).execute(req)
      ),
    } as unknown as RpcCaller;
    expect(await tokenNames(rpc, ctx(org), ['ana@example.com'])).toEqual(new Map());
    expect(calls).toEqual([]);
    expect(await tokenNames(rpc, ctx(org), ['ana@example.com', live.id, live.id])).toEqual(new Map([[live.id, 'Order bot']]));
    expect(calls).toEqual([[live.id]]);
  });
});
