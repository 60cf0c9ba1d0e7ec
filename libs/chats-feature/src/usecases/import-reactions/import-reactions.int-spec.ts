import type { IngestEvent, RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, randomDigits, useTestDatabase } from '@mapi/testing';
import { ApplyIngest } from '../../ingest/apply-ingest.usecase';
import { ImportReactions } from './import-reactions.usecase';

const t = useTestDatabase('import_reactions');
type Phone = { org_id: string; phone_id: string; org_phone: string };
const ctx = (orgId: string): RequestContext => ({ org_id: orgId, token_id: newUuid(), phone_scope: null, phone: null, member: null });
const run = (orgId: string, items: unknown[]) =>
  new ImportReactions(t.prisma, phoneDirectoryFromDb(t.prisma)).execute({ ctx: ctx(orgId), body: { items } });
let seq = 0;

async function phoneWithMessage(): Promise<Phone & { chat_id: string; message_id: string; unique_id: string }> {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  const p = { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
  const chat_id = `${randomDigits()}@c.us`;
  const unique_id = `R${++seq}`;
  const upsert: IngestEvent = {
    ...p,
    kind: 'messages-upsert',
    type: 'append',
    messages: [
      {
        chat_id,
        unique_id,
        from_me: false,
        sender_phone: chat_id,
        body: 'hi',
        message_type: 'chat',
        timestamp: new Date().toISOString(),
        ack: 1,
      },
    ],
  };
  await new ApplyIngest(t.prisma).execute([upsert]);
  return { ...p, chat_id, unique_id, message_id: `false_${chat_id}_${unique_id}` };
}
/** A reaction as the source's GET /reactions answers it, on the target phone's copy. */
const reaction = (
  p: { phone_id: string; chat_id: string; message_id: string; unique_id: string },
  sender: string,
  emoji: string,
  at = '2026-01-01T00:00:00.000Z',
) => ({
  source_id: `${p.message_id}:${sender}`,
  phone_id: p.phone_id,
  reaction_id: `RX-${sender}-${emoji}`,
  message_id: p.message_id,
  msg_id: { from_me: false, id: p.unique_id, remote: p.chat_id, serialized: p.message_id },
  chat_id: p.chat_id,
  org_id: newUuid(),
  org_phone: '1@c.us',
  sender_id: sender,
  sender_phone: sender,
  reaction: emoji,
  timestamp: at,
  unique_id: `RX-${sender}-${emoji}`,
  id: null,
  ack: null,
  read: null,
  orphan: null,
  orphan_reason: null,
});

describe('ImportReactions (chats.v1.import.reactions)', () => {
  it("writes each sender's reaction and has_reaction as ingestion does, without events; a second run skips; a change updates", async () => {
    const p = await phoneWithMessage();
    const events = await t.prisma.outboxEvent.count({ where: { org_id: p.org_id } });
    const items = [reaction(p, '111@c.us', '👍'), reaction(p, '222@c.us', '❤️')];
    expect((await run(p.org_id, items)).results).toEqual(
      items.map((i) => ({ source_id: i.source_id, target_id: i.reaction_id, outcome: 'created' })),
    );
    expect(await t.prisma.messageReaction.count({ where: { phone_id: p.phone_id } })).toBe(2);
    expect((await t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id } })).has_reaction).toBe(true);
    expect(await t.prisma.outboxEvent.count({ where: { org_id: p.org_id } })).toBe(events);

    expect((await run(p.org_id, items)).results.map((r) => r.outcome)).toEqual(['skipped', 'skipped']);
    const changed = reaction(p, '111@c.us', '😂', '2026-01-02T00:00:00.000Z');
    expect((await run(p.org_id, [changed])).results[0].outcome).toBe('updated');
    expect(
      (await t.prisma.messageReaction.findMany({ where: { phone_id: p.phone_id }, orderBy: { sender_phone: 'asc' } })).map(
        (r) => r.reaction,
      ),
    ).toEqual(['😂', '❤️']);
  });

  it("is one reaction with the connector's copy of it", async () => {
    const p = await phoneWithMessage();
    const live: IngestEvent = {
      kind: 'reaction',
      org_id: p.org_id,
      phone_id: p.phone_id,
      org_phone: p.org_phone,
      chat_id: p.chat_id,
      from_me: false,
      unique_id: p.unique_id,
      reaction: { reaction_id: 'RX-333@c.us-👍', sender_phone: '333@c.us', reaction: '👍', timestamp: '2026-01-01T00:00:00.000Z' },
    };
    await new ApplyIngest(t.prisma).execute([live]);
    expect((await run(p.org_id, [reaction(p, '333@c.us', '👍')])).results[0].outcome).toBe('skipped');
    expect(await t.prisma.messageReaction.count({ where: { phone_id: p.phone_id } })).toBe(1);
  });

  it("fails a reaction to a message not imported, on another organization's phone, or malformed, with why, while the rest lands", async () => {
    const p = await phoneWithMessage();
    const other = await phoneWithMessage();
    const otherBefore = await t.prisma.message.findMany({ where: { org_id: other.org_id } });
    const missing = { ...p, message_id: `false_${p.chat_id}_NOPE`, unique_id: 'NOPE' };
    const answer = await run(p.org_id, [
      reaction(missing, '111@c.us', '👍'),
      reaction(other, '111@c.us', '👍'),
      { ...reaction(p, '222@c.us', '👍'), timestamp: 'yesterday' },
      reaction(p, '111@c.us', '👍'),
    ]);
    expect(answer.results.map((r) => [r.outcome, r.reason])).toEqual([
      ['failed', `message not found on phone ${p.phone_id} (import the message first)`],
      ['failed', `phone ${other.phone_id} is not a phone of this organization`],
      ['failed', expect.stringMatching(/^timestamp: /)],
      ['created', undefined],
    ]);
    expect(await t.prisma.message.findMany({ where: { org_id: other.org_id } })).toEqual(otherBefore);
    expect(await t.prisma.messageReaction.count({ where: { org_id: other.org_id } })).toBe(0);
  });
});
