import { randomUUID } from 'node:crypto';
import { ServiceError, type RequestContext } from '@mapi/contracts';
import { createChat, createMessages, createTwoPhoneOrgAndOther, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatPropertiesRepository } from '../repositories/chat-properties-repository';
import { ChatRepository } from '../repositories/chat-repository';
import { ContactRepository } from '../repositories/contact-repository';
import { MessageRefRepository } from '../repositories/message-ref-repository';
import { NotificationRepository } from '../repositories/notification-repository';
import { ReachRepository } from '../repositories/reach-repository';
import { ReactionRepository } from '../repositories/reaction-repository';
import { recordingSessions } from '../testing/recording-sessions';
import { ChatsInReach } from '../usecases/chats-in-reach/chats-in-reach.usecase';
import { CopiesInReach } from '../usecases/copies-in-reach/copies-in-reach.usecase';
import { DeleteMessage } from '../usecases/delete-message/delete-message.usecase';
import { EditMessage } from '../usecases/edit-message/edit-message.usecase';
import { ForwardMessage } from '../usecases/forward-message/forward-message.usecase';
import { GetContact } from '../usecases/get-contact/get-contact.usecase';
import { GetMessage } from '../usecases/get-message/get-message.usecase';
import { ListChatNotifications } from '../usecases/list-chat-notifications/list-chat-notifications.usecase';
import { ListContacts } from '../usecases/list-contacts/list-contacts.usecase';
import { ListNotifications } from '../usecases/list-notifications/list-notifications.usecase';
import { ListReactions } from '../usecases/list-reactions/list-reactions.usecase';
import { ReadChat } from '../usecases/read-chat/read-chat.usecase';
import { SetChatProperties } from '../usecases/set-chat-properties/set-chat-properties.usecase';
import { UpdateContactLabels } from '../usecases/update-contact-labels/update-contact-labels.usecase';
import { UpdateContact } from '../usecases/update-contact/update-contact.usecase';
import { chatPropertyEvents } from './chat-property-events';

const t = useTestDatabase('member_reach_routes');

/**
 * The routes that narrow by a member's labels and overrides beyond the four chat reads
 * (chat-reach.int-spec.ts): messages by id and their actions, read marks, notifications, reactions,
 * contacts, and the checks other services ask for (in-reach, copies-in-reach, set-properties).
 * Amy is a member of phone 1 limited to label vip; chat `far` (phone 2) is granted to her, `denied`
 * (vip, phone 1) denied. A token, an admin's session and Amy's answer side by side.
 */
describe('member reach on every chats route (integration)', () => {
  const w: Record<string, any> = {};
  const page = { offset: 0, limit: 50 };
  const member = (role: 'member' | 'admin', email: string, labels: string[] | null) => ({
    member_id: newUuid(),
    session_id: newUuid(),
    email,
    role,
    label_ids: labels,
  });
  const ctx = (extra: Partial<RequestContext> = {}): RequestContext => ({
    org_id: w.org.id,
    token_id: randomUUID(),
    phone_scope: null,
    phone: null,
    ...extra,
  });
  const amy = () => ctx({ phone_scope: [w.p1.phone_id], member: member('member', 'amy@example.com', ['vip']) });
  const ada = () => ctx({ phone_scope: [w.p1.phone_id], member: member('admin', 'ada@example.com', null) });
  const ben = () => ctx({ phone_scope: [w.p1.phone_id], member: member('member', 'ben@example.com', null) });
  const token = () => ctx({ phone_scope: [w.p1.phone_id] });
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: unknown) => (e instanceof ServiceError ? e.status : Promise.reject(e)),
    );
  const sorted = (a: string[]) => [...new Set(a)].sort();

  beforeAll(async () => {
    const p = t.prisma;
    Object.assign(w, await createTwoPhoneOrgAndOther(p));
    [w.vip, w.plain, w.far, w.denied] = [randomDigits(), randomDigits(), randomDigits(), randomDigits()].map((d) => `${d}@c.us`);
    [w.grp, w.grpPlain] = [`1203630${randomDigits(11)}@g.us`, `1203630${randomDigits(11)}@g.us`];
    const put = async (org: any, phone: any, chatId: string) => {
      const [m] = await createMessages(p, org, phone, [{ chatId, fromMe: true, body: `in ${chatId}` }]);
      await createChat(p, org, phone, { chatId, unread: 3 });
      return m;
    };
    w.m = {
      vip: await put(w.org, w.p1, w.vip),
      plain: await put(w.org, w.p1, w.plain),
      far: await put(w.org, w.p2, w.far),
      denied: await put(w.org, w.p1, w.denied),
      grp: await put(w.org, w.p1, w.grp),
      grpPlain: await put(w.org, w.p1, w.grpPlain),
      theirs: await put(w.other, w.q, w.plain),
    };
    const props = new ChatPropertiesRepository(p, chatPropertyEvents);
    await props.set(w.org.id, [w.vip, w.denied, w.grp], null, { labels: [{ label_id: newUuid(), name: 'vip' }] });
    await props.set(w.org.id, [w.far], null, { override_chat_access: { 'amy@example.com': true } });
    await props.set(w.org.id, [w.denied], null, { override_chat_access: { 'amy@example.com': false } });
    // the other organization grants its copy of `plain` to the same email: nothing of ours changes
    await props.set(w.other.id, [w.plain], null, { override_chat_access: { 'amy@example.com': true } });
    [w.inGrp, w.inGrpPlain] = [`${randomDigits()}@c.us`, `${randomDigits()}@c.us`];
    await p.groupParticipant.createMany({
      data: [
        { org_id: w.org.id, phone_id: w.p1.phone_id, chat_id: w.grp, contact_id: w.inGrp },
        { org_id: w.org.id, phone_id: w.p1.phone_id, chat_id: w.grpPlain, contact_id: w.inGrpPlain },
      ],
    });
    const contact = (org: string, id: string, phone: string) => ({ org_id: org, contact_id: id, phone_ids: [phone], labels: ['old'] });
    await p.contact.createMany({
      data: [
        contact(w.org.id, w.vip, w.p1.phone_id),
        contact(w.org.id, w.plain, w.p1.phone_id),
        contact(w.org.id, w.far, w.p2.phone_id),
        contact(w.org.id, w.inGrp, w.p1.phone_id),
        contact(w.org.id, w.inGrpPlain, w.p1.phone_id),
        contact(w.other.id, w.plain, w.q.phone_id),
      ],
    });
    const note = (chatId: string, n: number) => ({
      org_id: w.org.id,
      phone_id: w.p1.phone_id,
      org_phone: w.p1.org_phone,
      chat_id: chatId,
      type: 'add',
      author: null,
      recipientids: [],
      body: null,
      unique_id: `n${n}-${randomDigits()}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 10, n)),
    });
    await p.chatNotification.createMany({ data: [note(w.grp, 1), note(w.grpPlain, 2)] });
    const reaction = (m: any, n: number) => ({
      org_id: w.org.id,
      phone_id: m.phone_id,
      message_id: m.message_id,
      chat_id: m.chat_id,
      sender_phone: `${randomDigits()}@c.us`,
      reaction_id: `r${n}`,
      reaction: '👍',
      reacted_at: new Date(Date.UTC(2026, 0, 1, 11, n)),
    });
    await p.messageReaction.createMany({ data: [reaction(w.m.vip, 1), reaction(w.m.plain, 2), reaction(w.m.far, 3)] });
  });

  it("GET /message/{id}: a message of a chat outside the member's labels or denied is 404; a granted one is found", async () => {
    const get = (c: RequestContext, m: any) =>
      status(new GetMessage(new MessageRefRepository(t.prisma)).execute({ ctx: c, params: { message_id: m.message_id } }));
    expect(await get(amy(), w.m.vip)).toBe(200);
    expect(await get(amy(), w.m.far)).toBe(200);
    expect(await get(amy(), w.m.plain)).toBe(404);
    expect(await get(amy(), w.m.denied)).toBe(404);
    for (const c of [token(), ada()]) {
      expect(await get(c, w.m.plain)).toBe(200);
      expect(await get(c, w.m.denied)).toBe(200);
      expect(await get(c, w.m.far)).toBe(404);
    }
  });

  it('actions by id (edit, delete, forward): 404 and nothing sent outside reach; a member forwards only to chats within reach', async () => {
    const r = recordingSessions();
    const refs = new MessageRefRepository(t.prisma);
    const targets = new ChatsInReach(new ChatPropertiesRepository(t.prisma, chatPropertyEvents), new ReachRepository(t.prisma));
    const edit = (c: RequestContext, m: any) =>
      status(new EditMessage(refs, r.sessions).execute({ ctx: c, params: { message_id: m.message_id }, body: { edited_body: 'changed' } }));
    const del = (c: RequestContext, m: any) =>
      status(new DeleteMessage(refs, r.sessions).execute({ ctx: c, params: { message_id: m.message_id } }));
    const forward = (c: RequestContext, m: any, to: string[]) =>
      status(
        new ForwardMessage(refs, r.sessions, targets).execute({
          ctx: c,
          params: { message_id: m.message_id },
          body: { forward_chat_ids: to },
        }),
      );
    expect([await edit(amy(), w.m.plain), await del(amy(), w.m.denied), await forward(amy(), w.m.plain, [w.vip])]).toEqual([404, 404, 404]);
    expect(await forward(amy(), w.m.vip, [w.vip, w.plain])).toBe(404);
    expect(await forward(amy(), w.m.vip, [w.vip, `${randomDigits()}@c.us`])).toBe(404);
    expect(r.sent).toEqual([]);
    expect(await forward(amy(), w.m.vip, [w.far])).toBe(200);
    expect(await forward(ben(), w.m.plain, [`${randomDigits()}@c.us`])).toBe(200);
    expect(await edit(token(), w.m.plain)).toBe(200);
    expect(r.sent.map((s) => s.cmd.cmd)).toEqual(['message-forward', 'message-forward', 'message-edit']);
  });

  it('POST /chats/{chat_id}/read: 404 and nothing marked outside reach; a granted chat on another phone is marked, for the member only', async () => {
    const read = (c: RequestContext, chatId: string) =>
      status(new ReadChat(new ChatRepository(t.prisma)).execute({ ctx: c, params: { chat_id: chatId } }));
    const unread = async (chatId: string) =>
      (await t.prisma.chat.findMany({ where: { org_id: w.org.id, chat_id: chatId } })).map((c) => c.unread_count);
    // a console session's read is its member's mark (decision 0091); the phones' unread_count stays
    const marks = async (chatId: string) =>
      (
        await t.prisma.$queryRaw<
          { phone_id: string }[]
        >`SELECT phone_id FROM chat_member_reads WHERE org_id = ${w.org.id}::uuid AND chat_id = ${chatId}`
      ).map((r) => r.phone_id);
    const farBefore = await unread(w.far);
    expect(await read(amy(), w.plain)).toBe(404);
    expect(await read(amy(), w.denied)).toBe(404);
    expect(await unread(w.plain)).toEqual([3]);
    expect(await marks(w.plain)).toEqual([]);
    expect(await marks(w.denied)).toEqual([]);
    expect(await read(amy(), w.far)).toBe(200);
    expect(await marks(w.far)).toHaveLength(1);
    expect(await unread(w.far)).toEqual(farBefore);
    expect(await read(ada(), w.plain)).toBe(200);
    expect(await marks(w.plain)).toEqual([w.p1.phone_id]);
    expect(await unread(w.plain)).toEqual([3]);
    expect(await read(token(), w.plain)).toBe(200); // an API token's read zeroes the copies, as before
    expect(await unread(w.plain)).toEqual([0]);
  });

  it('notifications and reactions: only those of chats within reach', async () => {
    const notes = new NotificationRepository(t.prisma);
    const all = async (c: RequestContext) =>
      (await new ListNotifications(notes).execute({ ctx: c, query: page } as any)).notifictions.map((n) => n.chat_id);
    const ofChat = async (c: RequestContext, chatId: string) =>
      (await new ListChatNotifications(notes).execute({ ctx: c, params: { chat_id: chatId }, query: page } as any)).notifictions.length;
    expect(await all(amy())).toEqual([w.grp]);
    expect(await ofChat(amy(), w.grpPlain)).toBe(0);
    expect(sorted((await all(token())) as string[])).toEqual(sorted([w.grp, w.grpPlain]));
    expect(await ofChat(ada(), w.grpPlain)).toBe(1);
    const reactions = async (c: RequestContext) =>
      (await new ListReactions(new ReactionRepository(t.prisma)).execute({ ctx: c, query: page } as any)).reactions.map(
        (r) => r.message_id,
      );
    expect(sorted(await reactions(amy()))).toEqual(sorted([w.m.vip.message_id, w.m.far.message_id]));
    expect(sorted(await reactions(token()))).toEqual(sorted([w.m.vip.message_id, w.m.plain.message_id]));
  });

  it("contacts: a member's are those of the chats they reach (1-1 or a group they see); others 404 and unchanged", async () => {
    const contacts = new ContactRepository(t.prisma);
    const list = async (c: RequestContext) =>
      (await new ListContacts(contacts).execute({ ctx: c, query: page } as any)).contacts.map((x: any) => x.contact_id).sort();
    const get = (c: RequestContext, id: string) => new GetContact(contacts).execute({ ctx: c, params: { contact_id: id } });
    expect(await list(amy())).toEqual(sorted([w.vip, w.far, w.inGrp]));
    expect(await list(token())).toEqual(sorted([w.vip, w.plain, w.inGrp, w.inGrpPlain]));
    expect(await list(ada())).toEqual(await list(token()));
    expect(await status(get(amy(), w.plain))).toBe(404);
    expect(await status(get(amy(), w.inGrpPlain))).toBe(404);
    expect(await get(amy(), w.far)).toMatchObject({ contact_id: w.far });
    expect(await status(get(token(), w.far))).toBe(404);
    const update = (c: RequestContext, id: string) =>
      status(new UpdateContact(contacts).execute({ ctx: c, params: { contact_id: id }, body: { contact_name: 'Changed' } } as any));
    const relabel = (c: RequestContext, ids: string[]) =>
      status(new UpdateContactLabels(contacts).execute({ ctx: c, body: { contact_ids: ids, labels: 'new' } } as any));
    expect(await update(amy(), w.plain)).toBe(404);
    expect(await relabel(amy(), [w.vip, w.plain])).toBe(404);
    const plain = await t.prisma.contact.findUnique({ where: { org_id_contact_id: { org_id: w.org.id, contact_id: w.plain } } });
    expect(plain).toMatchObject({ contact_name: null, labels: ['old'] });
    expect((await t.prisma.contact.findUnique({ where: { org_id_contact_id: { org_id: w.org.id, contact_id: w.vip } } }))?.labels).toEqual([
      'old',
    ]);
    expect(await update(amy(), w.far)).toBe(200);
    expect(await relabel(amy(), [w.vip, w.inGrp])).toBe(200);
    expect(await relabel(token(), [w.plain])).toBe(200);
  });

  it('in-reach, copies-in-reach and set-properties (asked by the inbox, groups, queue, realtime) answer with the same reach', async () => {
    const props = new ChatPropertiesRepository(t.prisma, chatPropertyEvents);
    const reach = new ReachRepository(t.prisma);
    const fresh = `${randomDigits()}@c.us`;
    const missing = async (c: RequestContext, ids: string[], toSend = false) =>
      (await new ChatsInReach(props, reach).execute({ ctx: c, body: { chat_ids: ids, to_send: toSend } })).missing.sort();
    const everything = [w.vip, w.plain, w.far, w.denied, fresh];
    expect(await missing(amy(), everything)).toEqual(sorted([w.plain, w.denied, fresh]));
    expect(await missing(amy(), everything, true)).toEqual(sorted([w.plain, w.denied, fresh]));
    expect(await missing(ben(), everything)).toEqual(sorted([w.far, fresh]));
    expect(await missing(ben(), everything, true)).toEqual([]);
    expect(await missing(token(), everything, true)).toEqual(sorted([w.far, fresh]));
    const copies = async (c: RequestContext) =>
      (
        await new CopiesInReach(reach).execute({
          ctx: c,
          body: {
            copies: [w.p1, w.p2].flatMap((ph) => [w.vip, w.plain, w.far, w.denied].map((chat_id) => ({ phone_id: ph.phone_id, chat_id }))),
          },
        })
      ).reached
        .map((x) => `${x.phone_id}:${x.chat_id}`)
        .sort();
    expect(await copies(amy())).toEqual([`${w.p1.phone_id}:${w.vip}`, `${w.p2.phone_id}:${w.far}`].sort());
    expect(await copies(token())).toEqual([w.vip, w.plain, w.denied].map((id) => `${w.p1.phone_id}:${id}`).sort());
    expect(await copies({ ...amy(), org_id: w.other.id })).toEqual([]);
    const set = (c: RequestContext, ids: string[]) =>
      status(new SetChatProperties(props).execute({ ctx: c, body: { chat_ids: ids, assigned_to: 'amy@example.com' } }));
    expect(await set(amy(), [w.vip, w.plain])).toBe(404);
    expect(await t.prisma.chatProperties.findFirst({ where: { org_id: w.org.id, chat_id: w.vip } })).toMatchObject({ assigned_to: null });
    expect(await set(amy(), [w.vip, w.far])).toBe(200);
    expect(await set(token(), [w.plain, w.denied])).toBe(200);
  });
});
