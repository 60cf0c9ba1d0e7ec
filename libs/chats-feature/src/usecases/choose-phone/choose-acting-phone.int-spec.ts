import { ServiceError, type RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatRepository } from '../../repositories/chat-repository';
import { ChooseActingPhone } from './choose-acting-phone.usecase';

describe('ChooseActingPhone (integration)', () => {
  const t = useTestDatabase('choose_phone');
  const w: Record<string, any> = {};
  const ctx = (org: string, scope: string[] | null = null): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: scope,
    phone: null,
  });

  beforeAll(async () => {
    const p = t.prisma;
    w.org = await createOrg(p);
    w.other = await createOrg(p);
    w.group = `1203630${randomDigits(11)}@g.us`;
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    w.p1 = await createPhone(p, w.org.id, { created_at: at(1) }); // has the chat, not admin
    w.p2 = await createPhone(p, w.org.id, { created_at: at(2) }); // admin
    w.p3 = await createPhone(p, w.org.id, { created_at: at(0), wa_state: 'DISCONNECTED', is_ready: false }); // admin, disconnected
    w.p4 = await createPhone(p, w.other.id, { created_at: at(0) }); // other organization, admin
    w.p5 = await createPhone(p, w.org.id, { created_at: at(0), deleted_at: new Date() }); // deleted, admin
    for (const ph of [w.p1, w.p2, w.p3, w.p4, w.p5]) {
      await p.chat.create({ data: { org_id: ph.org_id, phone_id: ph.phone_id, chat_id: w.group, chat_type: 'group' } });
      await p.groupParticipant.create({
        data: { org_id: ph.org_id, phone_id: ph.phone_id, chat_id: w.group, contact_id: ph.org_phone, is_admin: ph !== w.p1 },
      });
    }
  });

  const choose = (c: RequestContext, need_admin = false, chat_id = w.group) =>
    new ChooseActingPhone(new ChatRepository(t.prisma), phoneDirectoryFromDb(t.prisma)).execute({ ctx: c, chat_id, need_admin });

  it('picks the first-created connected phone that has the chat', async () => {
    expect(await choose(ctx(w.org.id))).toEqual({ phone_id: w.p1.phone_id, org_phone: w.p1.org_phone });
  });

  it('picks an admin of the group when the action needs one', async () => {
    expect((await choose(ctx(w.org.id), true)).phone_id).toBe(w.p2.phone_id);
  });

  it('stays within the token scope and the organization', async () => {
    expect((await choose(ctx(w.org.id, [w.p2.phone_id]))).phone_id).toBe(w.p2.phone_id);
    expect((await choose(ctx(w.other.id), true)).phone_id).toBe(w.p4.phone_id);
  });

  it.each([
    ['only a disconnected phone in scope', () => ctx(w.org.id, [w.p3.phone_id]), true, undefined],
    ['no admin in scope', () => ctx(w.org.id, [w.p1.phone_id]), true, undefined],
    ['an empty scope', () => ctx(w.org.id, []), false, undefined],
    ['a chat no phone has', () => ctx(w.org.id), false, `${randomDigits()}@c.us`],
  ])('answers 400 ERROR with %s', async (_name, c, admin, chat) => {
    const error = await choose(c(), admin, chat ?? w.group).catch((e) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'ERROR', status: 400 });
  });
});
