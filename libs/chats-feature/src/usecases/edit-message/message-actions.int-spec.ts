import { randomUUID } from 'node:crypto';
import { createMessages, createOrg, createPhone, useTestDatabase } from '@mapi/testing';
import { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';
import { MessageRefRepository } from '../../repositories/message-ref-repository';
import { ReachRepository } from '../../repositories/reach-repository';
import { ChatsInReach } from '../chats-in-reach/chats-in-reach.usecase';
import { recordingSessions } from '../../testing/recording-sessions';
import { DeleteMessage } from '../delete-message/delete-message.usecase';
import { ForwardMessage } from '../forward-message/forward-message.usecase';
import { PinMessage } from '../pin-message/pin-message.usecase';
import { ReactMessage } from '../react-message/react-message.usecase';
import { EditMessage } from './edit-message.usecase';
import { chatPropertyEvents } from '../../chats/chat-property-events';

const t = useTestDatabase('message_actions');
const CHAT = '15550001111@c.us';
const GROUP = '120363000000000077@g.us';
const targets = () => new ChatsInReach(new ChatPropertiesRepository(t.prisma, chatPropertyEvents), new ReachRepository(t.prisma));

/** Edit, delete, react, pin and forward: the command each sends to the phone's session, and what each refuses. */
describe('message actions', () => {
  let w: Record<string, any>;
  const ctx = () => ({ org_id: w.org.id, token_id: randomUUID(), phone_scope: null, phone: null });
  const refusal = async (p: Promise<unknown>, message: RegExp) => {
    const err: any = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(err.fields.message_id.message).toMatch(message);
  };

  beforeAll(async () => {
    const org = await createOrg(t.prisma);
    const other = await createOrg(t.prisma);
    const phone = await createPhone(t.prisma, org.id);
    const theirs = await createPhone(t.prisma, other.id);
    const [mine, received, old, poll, deleted, groupMsg, image] = await createMessages(t.prisma, org, phone as any, [
      { chatId: CHAT, fromMe: true, body: 'first words' },
      { chatId: CHAT, body: 'from them' },
      { chatId: CHAT, fromMe: true, body: 'long ago', timestamp: new Date(Date.now() - 16 * 60_000) },
      { chatId: CHAT, fromMe: true, body: 'Lunch?', overrides: { message_type: 'poll_creation' } },
      { chatId: CHAT, fromMe: true, body: 'gone', overrides: { is_deleted: true } },
      { chatId: GROUP, body: 'group hello' },
      {
        chatId: CHAT,
        fromMe: true,
        body: null,
        overrides: {
          message_type: 'image',
          media: {
            path: 'https://files.example/x.png',
            filename: 'x.png',
            mimetype: 'image/png',
            size: 1,
            thumbnail: '',
            dimensions: { ar: 1, height: 1, width: 1 },
          },
        },
      },
    ]);
    const [foreign] = await createMessages(t.prisma, other, theirs as any, [{ chatId: CHAT, fromMe: true, body: 'not yours' }]);
    w = { org, phone, mine, received, old, poll, deleted, groupMsg, image, foreign };
  });

  it("edit: sends message-edit with the network key of the phone's own message", async () => {
    const r = recordingSessions();
    await new EditMessage(new MessageRefRepository(t.prisma), r.sessions).execute({
      ctx: ctx(),
      params: { message_id: w.mine.message_id },
      body: { edited_body: 'better words' },
    });
    expect(r.sent).toEqual([
      {
        phoneId: w.phone.phone_id,
        cmd: {
          cmd: 'message-edit',
          key: { chat_id: CHAT, unique_id: w.mine.unique_id, from_me: true, sender_phone: w.phone.org_phone },
          body: 'better words',
        },
      },
    ]);
    // The same text again: nothing to do, nothing sent.
    await new EditMessage(new MessageRefRepository(t.prisma), r.sessions).execute({
      ctx: ctx(),
      params: { message_id: w.mine.message_id },
      body: { edited_body: 'first words' },
    });
    expect(r.sent).toHaveLength(1);
  });

  it("edit: refuses another person's message, a poll, a deleted message and one older than 15 minutes (422 message_id)", async () => {
    const r = recordingSessions();
    const edit = (m: any) =>
      new EditMessage(new MessageRefRepository(t.prisma), r.sessions).execute({
        ctx: ctx(),
        params: { message_id: m.message_id },
        body: { edited_body: 'x' },
      });
    await refusal(edit(w.received), /sent/);
    await refusal(edit(w.poll), /cannot be edited/);
    await refusal(edit(w.deleted), /deleted/);
    await refusal(edit(w.old), /15 minutes/);
    expect(r.sent).toHaveLength(0);
  });

  it("delete: sends message-delete for the phone's own message; an already deleted one is a no-op; another person's is 422", async () => {
    const r = recordingSessions();
    const del = (m: any) =>
      new DeleteMessage(new MessageRefRepository(t.prisma), r.sessions).execute({ ctx: ctx(), params: { message_id: m.message_id } });
    await del(w.mine);
    await del(w.deleted);
    await refusal(del(w.received), /sent/);
    expect(r.sent.map((s) => s.cmd)).toEqual([
      { cmd: 'message-delete', key: expect.objectContaining({ unique_id: w.mine.unique_id, from_me: true }) },
    ]);
  });

  it('react and pin: any message of the chat, a group message keyed with its sender; a deleted one is 422', async () => {
    const r = recordingSessions();
    const repo = new MessageRefRepository(t.prisma);
    await new ReactMessage(repo, r.sessions).execute({
      ctx: ctx(),
      params: { message_id: w.groupMsg.message_id },
      body: { reaction: '👍' },
    });
    await new PinMessage(repo, r.sessions).execute({ ctx: ctx(), params: { message_id: w.received.message_id }, body: { pin: true } });
    await refusal(
      new ReactMessage(repo, r.sessions).execute({ ctx: ctx(), params: { message_id: w.deleted.message_id }, body: { reaction: '👍' } }),
      /deleted/,
    );
    await refusal(
      new PinMessage(repo, r.sessions).execute({ ctx: ctx(), params: { message_id: w.deleted.message_id }, body: { pin: false } }),
      /deleted/,
    );
    expect(r.sent.map((s) => s.cmd)).toEqual([
      {
        cmd: 'message-react',
        key: { chat_id: GROUP, unique_id: w.groupMsg.unique_id, from_me: false, sender_phone: w.groupMsg.sender_phone },
        reaction: '👍',
      },
      { cmd: 'message-pin', key: expect.objectContaining({ unique_id: w.received.unique_id }), pin: true },
    ]);
  });

  it('forward: one command per distinct chat; with an Idempotency-Key a retry carries the same forward ids', async () => {
    const r = recordingSessions();
    const forward = (m: any, chats: string[], headers?: Record<string, string>) =>
      new ForwardMessage(new MessageRefRepository(t.prisma), r.sessions, targets()).execute({
        ctx: ctx(),
        params: { message_id: m.message_id },
        body: { forward_chat_ids: chats },
        headers,
      });
    await forward(w.received, ['15550002222@c.us', GROUP, '15550002222@c.us'], { 'idempotency-key': 'k-1' });
    await forward(w.received, ['15550002222@c.us', GROUP], { 'idempotency-key': 'k-1' });
    const ids = r.sent.map((s) => (s.cmd as any).sent_message_id);
    expect(r.sent.map((s) => (s.cmd as any).chat_id)).toEqual(['15550002222@c.us', GROUP, '15550002222@c.us', GROUP]);
    expect(ids.slice(2)).toEqual(ids.slice(0, 2));
    expect(new Set(ids.slice(0, 2)).size).toBe(2);
    expect((r.sent[0].cmd as any).content).toEqual({ text: 'from them' });
    // Without a key, each request is a new forward.
    await forward(w.received, ['15550002222@c.us']);
    expect(ids).not.toContain((r.sent[4].cmd as any).sent_message_id);
    await forward(w.image, ['15550002222@c.us']);
    expect((r.sent[5].cmd as any).content).toEqual({
      media: { url: 'https://files.example/x.png', filename: 'x.png', mimetype: 'image/png' },
    });
    await refusal(forward(w.poll, [CHAT]), /poll/);
    await refusal(forward(w.deleted, [CHAT]), /deleted/);
  });

  it("answers 404 for another organization's message and sends nothing", async () => {
    const r = recordingSessions();
    const err: any = await new DeleteMessage(new MessageRefRepository(t.prisma), r.sessions)
      .execute({ ctx: ctx(), params: { message_id: w.foreign.message_id } })
      .catch((e) => e);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND_ERROR' });
    expect(r.sent).toHaveLength(0);
  });
});
