import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('apply_reactions');
type Phone = { org_id: string; phone_id: string; org_phone: string };

async function phoneWithMessage(): Promise<{ p: Phone; m: IngestMessage }> {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  const p = { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
  const chat = `${randomDigits()}@c.us`;
  const m: IngestMessage = {
    chat_id: chat,
    unique_id: `R${randomDigits(8)}`,
    from_me: true,
    sender_phone: p.org_phone,
    body: 'lunch?',
    message_type: 'chat',
    timestamp: new Date().toISOString(),
    ack: 2,
  };
  await new ApplyIngest(t.prisma).execute([{ ...p, kind: 'messages-upsert', type: 'notify', messages: [m] }]);
  return { p, m };
}
const reaction = (p: Phone, m: IngestMessage, sender: string, emoji: string, at: number): IngestEvent => ({
  ...p,
  kind: 'reaction',
  chat_id: m.chat_id,
  unique_id: m.unique_id,
  from_me: m.from_me,
  reaction: { reaction_id: `RX${at}`, sender_phone: sender, reaction: emoji, timestamp: new Date(at).toISOString() },
});
const events = async (orgId: string, prefix: string) => {
  const rows = await t.prisma.outboxEvent.findMany({ where: { org_id: orgId, type: { startsWith: prefix } }, orderBy: { seq: 'asc' } });
  rows.forEach(registryPayload); // each is its registry object
  return rows.map((r) => ({ type: r.type, data: r.payload as Record<string, unknown> }));
};
const hasReaction = async (p: Phone, m: IngestMessage) =>
  (await t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id, unique_id: m.unique_id } })).has_reaction;

describe('reactions', () => {
  it('emits reaction.created for a sender’s first reaction, reaction.updated for a change or a take-back, and keeps has_reaction true while one stands', async () => {
    const { p, m } = await phoneWithMessage();
    const apply = (e: IngestEvent) => new ApplyIngest(t.prisma).execute([e]);
    await apply(reaction(p, m, '111@c.us', '👍', 1_000));
    expect(await hasReaction(p, m)).toBe(true);
    await apply(reaction(p, m, '222@c.us', '❤️', 2_000));
    await apply(reaction(p, m, '111@c.us', '😂', 3_000));
    await apply(reaction(p, m, '111@c.us', '', 4_000));
    expect(await hasReaction(p, m)).toBe(true); // 222's still stands
    await apply(reaction(p, m, '222@c.us', '', 5_000));
    expect(await hasReaction(p, m)).toBe(false);

    const out = await events(p.org_id, 'reaction.');
    expect(out.map((e) => [e.type, e.data.sender_phone, e.data.reaction])).toEqual([
      ['reaction.created', '111@c.us', '👍'],
      ['reaction.created', '222@c.us', '❤️'],
      ['reaction.updated', '111@c.us', '😂'],
      ['reaction.updated', '111@c.us', ''],
      ['reaction.updated', '222@c.us', ''],
    ]);
    expect(out[0].data).toMatchObject({
      message_id: `true_${m.chat_id}_${m.unique_id}`,
      chat_id: m.chat_id,
      org_id: p.org_id,
      org_phone: p.org_phone,
      timestamp: new Date(1_000).toISOString(),
    });
  });

  it('ignores a repeated or an older report, and a reaction to a message it does not have', async () => {
    const { p, m } = await phoneWithMessage();
    const apply = (e: IngestEvent) => new ApplyIngest(t.prisma).execute([e]);
    await apply(reaction(p, m, '111@c.us', '👍', 5_000));
    await apply(reaction(p, m, '111@c.us', '👍', 5_000)); // redelivered
    await apply(reaction(p, m, '111@c.us', '😡', 4_000)); // arrived late, older
    await apply(reaction(p, { ...m, unique_id: 'UNKNOWN' }, '111@c.us', '👍', 6_000));
    expect((await events(p.org_id, 'reaction.')).map((e) => e.data.reaction)).toEqual(['👍']);
    expect(await t.prisma.messageReaction.count({ where: { phone_id: p.phone_id } })).toBe(1);
  });
});

describe('poll results', () => {
  it('stores a changed tally as poll_results and emits message.updated once per change', async () => {
    const { p, m } = await phoneWithMessage();
    const tally = [
      { name: 'Yes', voters: ['111@c.us'] },
      { name: 'No', voters: [] },
    ];
    const poll = (results: typeof tally): IngestEvent => ({
      ...p,
      kind: 'poll-results',
      chat_id: m.chat_id,
      unique_id: m.unique_id,
      from_me: true,
      poll_results: results,
    });
    await new ApplyIngest(t.prisma).execute([poll(tally)]);
    await new ApplyIngest(t.prisma).execute([poll(tally)]);
    await new ApplyIngest(t.prisma).execute([
      poll([
        { name: 'Yes', voters: [] },
        { name: 'No', voters: ['111@c.us'] },
      ]),
    ]);
    const out = await events(p.org_id, 'message.updated');
    expect(out.map((e) => e.data.poll_results)).toEqual([
      tally,
      [
        { name: 'Yes', voters: [] },
        { name: 'No', voters: ['111@c.us'] },
      ],
    ]);
  });
});
