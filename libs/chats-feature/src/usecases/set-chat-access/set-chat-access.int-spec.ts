import { ServiceError, type RequestContext } from '@mapi/contracts';
import { createChat, createTwoPhoneOrgAndOther, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';
import { SetChatAccess } from './set-chat-access.usecase';
import { chatPropertyEvents } from '../../chats/chat-property-events';

const t = useTestDatabase('set_chat_access');

/** chats.v1.chat.set-access against Postgres: replace and merge, all or nothing, organizations isolated. */
describe('SetChatAccess (integration)', () => {
  const w: Record<string, any> = {};
  const ctx = (org: string, phone_scope: string[] | null = null): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope,
    phone: null,
    member: null,
  });
  const run = (org: string, chat_ids: string[], access: Record<string, boolean>, replace: boolean, scope: string[] | null = null) =>
    new SetChatAccess(new ChatPropertiesRepository(t.prisma, chatPropertyEvents)).execute({
      ctx: ctx(org, scope),
      body: { chat_ids, access, replace },
    });
  const stored = async (org: string, chat: string) =>
    (await t.prisma.chatProperties.findFirst({ where: { org_id: org, chat_id: chat } }))?.override_chat_access ?? null;

  beforeAll(async () => {
    Object.assign(w, await createTwoPhoneOrgAndOther(t.prisma));
    [w.a, w.b, w.theirs] = [randomDigits(), randomDigits(), randomDigits()].map((d) => `${d}@c.us`);
    await createChat(t.prisma, w.org, w.p1, { chatId: w.a });
    await createChat(t.prisma, w.org, w.p2, { chatId: w.b });
    await createChat(t.prisma, w.other, w.q, { chatId: w.theirs });
    await createChat(t.prisma, w.other, w.q, { chatId: w.a });
  });

  it('merges by default and replaces on request, per chat', async () => {
    expect(await run(w.org.id, [w.a, w.b], { 'amy@x.com': true }, false)).toEqual({ updated: 2 });
    expect(await run(w.org.id, [w.a], { 'ben@x.com': false }, false)).toEqual({ updated: 1 });
    expect(await stored(w.org.id, w.a)).toEqual({ 'amy@x.com': true, 'ben@x.com': false });
    expect(await run(w.org.id, [w.a], { 'ben@x.com': false }, false)).toEqual({ updated: 0 });
    expect(await run(w.org.id, [w.b], { 'ben@x.com': true }, true)).toEqual({ updated: 1 });
    expect(await stored(w.org.id, w.b)).toEqual({ 'ben@x.com': true });
    expect(await run(w.org.id, [w.b], {}, true)).toEqual({ updated: 1 });
    expect(await stored(w.org.id, w.b)).toBeNull();
  });

  it("another organization's chat, a missing one or one outside the phones in reach: 404 and nothing changes", async () => {
    const before = await t.prisma.chatProperties.findMany({ orderBy: [{ org_id: 'asc' }, { chat_id: 'asc' }] });
    for (const attempt of [
      () => run(w.org.id, [w.a, w.theirs], { 'amy@x.com': false }, true),
      () => run(w.org.id, [w.a, `${randomDigits()}@c.us`], { 'amy@x.com': false }, true),
      () => run(w.org.id, [w.a, w.b], { 'amy@x.com': false }, true, [w.p1.phone_id]),
      () => run(w.other.id, [w.b], { 'amy@x.com': false }, true),
    ]) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).status).toBe(404);
    }
    expect(await t.prisma.chatProperties.findMany({ orderBy: [{ org_id: 'asc' }, { chat_id: 'asc' }] })).toEqual(before);
    expect(await stored(w.other.id, w.a)).toBeNull();
  });
});
