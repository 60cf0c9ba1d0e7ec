import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { createOrg, createPhone, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('apply_changes');
type Phone = { org_id: string; phone_id: string; org_phone: string };

async function newPhone(): Promise<Phone> {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  return { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone as string };
}
const message = (p: Phone, body: string): IngestMessage => {
  const chat = `${randomDigits()}@c.us`;
  return {
    chat_id: chat,
    unique_id: `C${randomDigits(8)}`,
    from_me: false,
    sender_phone: chat,
    body,
    message_type: 'chat',
    timestamp: new Date().toISOString(),
    ack: 0,
  };
};
const upsert = (p: Phone, messages: IngestMessage[]): IngestEvent => ({ ...p, kind: 'messages-upsert', type: 'notify', messages });
const key = (m: IngestMessage) => ({ chat_id: m.chat_id, unique_id: m.unique_id, from_me: m.from_me });
const edit = (p: Phone, m: IngestMessage, body: string): IngestEvent => ({ ...p, kind: 'edit', ...key(m), body });
const del = (p: Phone, m: IngestMessage): IngestEvent => ({ ...p, kind: 'delete', ...key(m) });
const react = (p: Phone, m: IngestMessage, sender: string, emoji: string, at: number): IngestEvent => ({
  ...p,
  kind: 'reaction',
  ...key(m),
  reaction: { reaction_id: `RX${sender}${emoji}`, sender_phone: sender, reaction: emoji, timestamp: new Date(at).toISOString() },
});
const outbox = async (orgId: string) => {
  const rows = await t.prisma.outboxEvent.findMany({
    where: { org_id: orgId, NOT: { type: { startsWith: 'chat' } } },
    orderBy: { seq: 'asc' },
  });
  rows.forEach(registryPayload); // each is its registry object
  return rows.map((r) => ({
    type: r.type,
    data: r.payload as Record<string, unknown>,
    previous: r.previous_attributes as Record<string, unknown> | null,
  }));
};
const row = (p: Phone, m: IngestMessage) => t.prisma.message.findFirstOrThrow({ where: { phone_id: p.phone_id, unique_id: m.unique_id } });

describe('edits, deletions and reactions applied together (one batch)', () => {
  it('fold in the order they came: one event per change, each with what it replaced, and the rows as the last change left them', async () => {
    const p = await newPhone();
    const a = message(p, 'first');
    const b = message(p, 'other');
    await new ApplyIngest(t.prisma).execute([upsert(p, [a, b])]);
    await new ApplyIngest(t.prisma).execute([
      react(p, a, '111@c.us', '👍', 1_000),
      edit(p, a, 'second'),
      react(p, a, '111@c.us', '😂', 2_000),
      react(p, a, '111@c.us', '😡', 1_500), // older than the sender's standing one: nothing
      edit(p, a, 'third'),
      edit(p, a, 'third'), // already so: nothing
      del(p, b),
      del(p, b), // already deleted: nothing
      react(p, a, '111@c.us', '', 3_000),
      edit(p, { ...a, unique_id: 'UNKNOWN' }, 'x'), // a message this phone does not have: dropped
    ]);
    const out = (await outbox(p.org_id)).filter((e) => e.type !== 'message.created');
    expect(out.map((e) => e.type)).toEqual([
      'reaction.created',
      'message.updated',
      'reaction.updated',
      'message.updated',
      'message.deleted',
      'reaction.updated',
    ]);
    const [created, edited, changed, editedAgain, deleted, takenBack] = out;
    expect(created.data).toMatchObject({ reaction: '👍', sender_phone: '111@c.us', message_id: `false_${a.chat_id}_${a.unique_id}` });
    // the edit after the reaction sees has_reaction set, and replaces the text the reaction left
    expect(edited.data).toMatchObject({ body: 'second', prev_body: 'first', has_reaction: true });
    expect(edited.previous).toMatchObject({ body: 'first', prev_body: null });
    expect(changed.data).toMatchObject({ reaction: '😂' });
    expect(changed.previous).toMatchObject({ reaction: '👍' });
    expect(editedAgain.data).toMatchObject({ body: 'third', prev_body: 'second' });
    // one clock per batch: the second edit's updated_at is the first's, so it is not among what changed
    expect(editedAgain.previous).toEqual({ body: 'second', prev_body: 'first' });
    expect(editedAgain.data.updated_at).toBe(edited.data.updated_at);
    expect(deleted.data).toMatchObject({ unique_id: b.unique_id, is_deleted: true });
    expect(takenBack.data).toMatchObject({ reaction: '' });
    expect(takenBack.previous).toMatchObject({ reaction: '😂' });

    expect(await row(p, a)).toMatchObject({ body: 'third', prev_body: 'second', has_reaction: false });
    expect((await row(p, b)).is_deleted).toBe(true);
    expect(await t.prisma.messageReaction.findMany({ where: { phone_id: p.phone_id } })).toEqual([
      expect.objectContaining({ sender_phone: '111@c.us', reaction: '', reaction_id: 'RX111@c.us', reacted_at: new Date(3_000) }),
    ]);
  });

  it('emits nothing more when the same batch is delivered again', async () => {
    const p = await newPhone();
    const a = message(p, 'hi');
    await new ApplyIngest(t.prisma).execute([upsert(p, [a])]);
    const batch = [
      react(p, a, '111@c.us', '👍', 1_000),
      react(p, a, '222@c.us', '❤️', 1_000),
      edit(p, a, 'hi!'),
      react(p, a, '111@c.us', '🔥', 2_000),
    ];
    await new ApplyIngest(t.prisma).execute(batch);
    const once = await outbox(p.org_id);
    await new ApplyIngest(t.prisma).execute(batch);
    expect(await outbox(p.org_id)).toEqual(once);
    expect(once.map((e) => e.type)).toEqual([
      'message.created',
      'reaction.created',
      'reaction.created',
      'message.updated',
      'reaction.updated',
    ]);
    expect(await row(p, a)).toMatchObject({ body: 'hi!', has_reaction: true });
    const reactions = await t.prisma.messageReaction.findMany({ where: { phone_id: p.phone_id }, orderBy: { sender_phone: 'asc' } });
    expect(reactions.map((r) => [r.sender_phone, r.reaction])).toEqual([
      ['111@c.us', '🔥'],
      ['222@c.us', '❤️'],
    ]);
  });

  it("keeps has_reaction while another sender's reaction stands (one read already stored, one in the batch)", async () => {
    const p = await newPhone();
    const a = message(p, 'hi');
    await new ApplyIngest(t.prisma).execute([upsert(p, [a]), react(p, a, '111@c.us', '👍', 1_000)]);
    await new ApplyIngest(t.prisma).execute([
      react(p, a, '222@c.us', '❤️', 2_000),
      react(p, a, '222@c.us', '', 3_000),
      react(p, a, '111@c.us', '', 3_000),
    ]);
    expect((await row(p, a)).has_reaction).toBe(false);
    await new ApplyIngest(t.prisma).execute([
      react(p, a, '111@c.us', '👍', 4_000),
      react(p, a, '222@c.us', '❤️', 4_000),
      react(p, a, '111@c.us', '', 5_000),
    ]);
    expect((await row(p, a)).has_reaction).toBe(true);
  });

  it('applies changes to a message stored earlier in the same batch, and keeps phones apart', async () => {
    const p = await newPhone();
    const q = await newPhone();
    const a = message(p, 'hi');
    await new ApplyIngest(t.prisma).execute([
      upsert(p, [a]),
      edit(p, a, 'hi there'),
      react(p, a, '111@c.us', '👍', 1_000),
      edit(q, a, 'not mine'),
      react(q, a, '111@c.us', '👍', 1_000),
    ]);
    expect(await row(p, a)).toMatchObject({ body: 'hi there', has_reaction: true });
    expect(await outbox(q.org_id)).toEqual([]);
    expect(await t.prisma.messageReaction.count({ where: { phone_id: q.phone_id } })).toBe(0);
  });
});
