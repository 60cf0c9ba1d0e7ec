import { Errors, ServiceError, type RequestContext, type SetChatAccessRequest } from '@mapi/contracts';
import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { randomUUID } from 'node:crypto';
import { AuditRepository } from '../../repositories/audit-repository';
import { MemberRepository } from '../../repositories/member-repository';
import { UpdateChatAccess } from './update-chat-access.usecase';

const t = useTestDatabase('update_chat_access');

/**
 * PATCH /chats/access on the members side against Postgres: which emails are members (of this
 * organization only), what is asked of the chats service, and the audit entry. The chats side is
 * libs/chats-feature/src/usecases/set-chat-access; the whole route: test/e2e/chat-access.e2e-spec.ts.
 */
describe('UpdateChatAccess (integration)', () => {
  const w: Record<string, any> = {};
  const asked: SetChatAccessRequest[] = [];
  let answer: () => Promise<{ updated: number }> = async () => ({ updated: 1 });
  const usecase = () =>
    new UpdateChatAccess(new MemberRepository(t.prisma), new AuditRepository(t.prisma), (request) => {
      asked.push(request);
      return answer();
    });
  const ctx = (org: string, member: RequestContext['member'] = null): RequestContext => ({
    org_id: org,
    token_id: w.token,
    phone_scope: null,
    phone: null,
    member,
  });
  const run = (org: string, body: Record<string, unknown>, member: RequestContext['member'] = null) =>
    usecase().execute({ ctx: ctx(org, member), body: body as never });
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    return err as ServiceError;
  };
  const member = (org: string, email: string, role = 'member') =>
    t.prisma.member.create({ data: { member_id: randomUUID(), org_id: org, email, role } });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.token = newUuid();
    w.amy = await member(w.org, 'amy@example.com');
    w.ben = await member(w.org, 'ben@example.com', 'admin');
    w.zoe = await member(w.other, 'zoe@example.com');
  });

  beforeEach(() => {
    asked.length = 0;
    answer = async () => ({ updated: 1 });
  });

  it('asks the chats service for the overrides with emails in lower case, merging unless replace, and records who did it', async () => {
    expect(
      await run(w.org, { access: { 'Amy@Example.com': true, 'ben@example.com': false }, chat_ids: ['111@c.us', '111@c.us'] }),
    ).toBeNull();
    expect(asked).toEqual([
      { ctx: ctx(w.org), body: { chat_ids: ['111@c.us'], access: { 'amy@example.com': true, 'ben@example.com': false }, replace: false } },
    ]);
    await run(w.org, { access: {}, chat_ids: ['111@c.us'], replace: true });
    expect(asked[1].body).toEqual({ chat_ids: ['111@c.us'], access: {}, replace: true });
    const [entry] = await t.prisma.memberAuditEntry.findMany({
      where: { org_id: w.org, action: 'chat.access_updated' },
      orderBy: { created_at: 'asc' },
    });
    expect(entry).toMatchObject({
      actor_type: 'token',
      actor_id: w.token,
      target: '111@c.us',
      details: { chat_ids: ['111@c.us'], replace: false, access: { 'amy@example.com': true, 'ben@example.com': false } },
    });
  });

  it("an email that is not a member, or another organization's member, is 422 naming the key, and nothing is asked", async () => {
    const err = await failure(
      run(w.org, { access: { 'amy@example.com': true, 'Zoe@example.com': false, nobody: true }, chat_ids: ['111@c.us'] }),
    );
    expect(err.status).toBe(422);
    expect(Object.keys(err.fields ?? {}).sort()).toEqual(['body.access.Zoe@example.com', 'body.access.nobody']);
    expect(asked).toEqual([]);
    const theirs = await failure(run(w.other, { access: { 'amy@example.com': true }, chat_ids: ['111@c.us'] }));
    expect(Object.keys(theirs.fields ?? {})).toEqual(['body.access.amy@example.com']);
    expect(asked).toEqual([]);
  });

  it("a chat out of reach (the chats service's 404) is passed on, and nothing is recorded", async () => {
    const before = await t.prisma.memberAuditEntry.count({ where: { org_id: w.org } });
    answer = () => Promise.reject(Errors.notFound('Chat not found'));
    expect((await failure(run(w.org, { access: { 'amy@example.com': true }, chat_ids: ['222@c.us'] }))).status).toBe(404);
    expect(await t.prisma.memberAuditEntry.count({ where: { org_id: w.org } })).toBe(before);
  });

  it('a member (role member) is refused with 403', async () => {
    const principal = { member_id: w.amy.member_id, session_id: newUuid(), email: 'amy@example.com', role: 'member' as const };
    expect((await failure(run(w.org, { access: { 'amy@example.com': true }, chat_ids: ['111@c.us'] }, principal))).status).toBe(403);
    expect(asked).toEqual([]);
  });
});
