import { createOrg, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { NoteRepository } from '../../repositories/note-repository';
import { chatsOf, importCtx, outcomes, phonesOf, type HeldChat } from '../../testing/import-stand-ins';
import { GetNote } from '../get-note/get-note.usecase';
import { noReach } from '../../testing/no-reach';
import { ImportNotes } from './import-notes.usecase';

/** inbox.v1.import.notes against Postgres; the chats and phones services are stand-ins over lists. */
describe('import notes (integration)', () => {
  const t = useTestDatabase('inbox_import_notes');
  const w: Record<string, string> = {};
  const held: HeldChat[] = [];
  const phones: { org: string; phone: string; number: string | null }[] = [];
  const run = (org: string, items: unknown[]) =>
    new ImportNotes(t.prisma, chatsOf(held), phonesOf(phones)).execute({ ctx: importCtx(org), body: { items } });
  const row = (id: string) => t.prisma.inboxNote.findUnique({ where: { note_id: id } });
  /** A GET /note item of the source. */
  const note = (id: string, over: Record<string, unknown> = {}) => ({
    source_id: id,
    message_id: id,
    unique_id: id,
    chat_id: w.chatA,
    org_id: newUuid(),
    org_phone: w.num2,
    body: 'Called them, refund agreed',
    message_type: 'chat',
    media: null,
    quoted_message_id: 'true_x@c.us_Q',
    is_private_note: true,
    from_me: true,
    performed_by: 'amy@example.com',
    timestamp: '2024-01-01T10:00:00.000Z',
    updated_at: '2024-01-01T11:00:00.000Z',
    ...over,
  });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.p1, w.p2, w.q1, w.num2] = ['phone-imp-note-1', 'phone-imp-note-2', 'phone-imp-note-q', `${randomDigits()}@c.us`];
    [w.chatA] = [`${randomDigits()}@c.us`];
    held.push({ org: w.org, phone: w.p1, chat: w.chatA }, { org: w.other, phone: w.q1, chat: w.chatA });
    phones.push(
      { org: w.org, phone: w.p1, number: null },
      { org: w.org, phone: w.p2, number: w.num2 },
      { org: w.other, phone: w.q1, number: null },
    );
    [w.n1, w.n2, w.taken] = [newUuid(), newUuid(), newUuid()];
    await t.prisma.inboxNote.create({
      data: { note_id: w.taken, org_id: w.other, phone_id: w.q1, chat_id: w.chatA, org_phone: '', body: 'theirs' },
    });
  });

  it('creates notes at their ids with text, author and times kept, on the phone given, of its number, or holding the chat', async () => {
    const r = await run(w.org, [
      note(w.n1),
      { ...note(w.n2, { org_phone: null }), phone_id: w.p2 },
      note('N-3', { org_phone: 'unknown@c.us' }),
    ]);
    expect(r.results).toEqual([
      { source_id: w.n1, target_id: w.n1, outcome: 'created' },
      { source_id: w.n2, target_id: w.n2, outcome: 'created' },
      { source_id: 'N-3', target_id: 'N-3', outcome: 'created' },
    ]);
    expect(await row(w.n1)).toMatchObject({
      org_id: w.org,
      phone_id: w.p2,
      org_phone: w.num2,
      chat_id: w.chatA,
      body: 'Called them, refund agreed',
      quoted_message_id: 'true_x@c.us_Q',
      performed_by: 'amy@example.com',
      timestamp: new Date('2024-01-01T10:00:00.000Z'),
      updated_at: new Date('2024-01-01T11:00:00.000Z'),
      request_hash: null,
    });
    expect((await row(w.n2))?.phone_id).toBe(w.p2);
    expect((await row('N-3'))?.phone_id).toBe(w.p1);
    expect(await t.prisma.outboxEvent.count({ where: { org_id: w.org } })).toBe(0);
    const read = await new GetNote(new NoteRepository(t.prisma), noReach).execute({ ctx: importCtx(w.org), params: { note_id: w.n1 } });
    expect(read).toMatchObject({ message_id: w.n1, body: 'Called them, refund agreed', timestamp: '2024-01-01T10:00:00.000Z' });
  });

  it('answers the same batch again with skipped and makes nothing; a changed text is updated', async () => {
    const before = await t.prisma.inboxNote.count();
    expect(
      outcomes(
        await run(w.org, [note(w.n1), { ...note(w.n2, { org_phone: null }), phone_id: w.p2 }, note('N-3', { org_phone: 'unknown@c.us' })]),
      ),
    ).toEqual(['skipped', 'skipped', 'skipped']);
    expect(await t.prisma.inboxNote.count()).toBe(before);
    expect((await run(w.org, [note(w.n1, { body: 'Refund sent' })])).results[0]).toMatchObject({ target_id: w.n1, outcome: 'updated' });
    expect((await row(w.n1))?.body).toBe('Refund sent');
  });

  it("honours target_id, and gives a new id when the source id is another organization's note, which stays as it was", async () => {
    const mapped = newUuid();
    const r = await run(w.org, [{ ...note('src-9'), target_id: mapped }, note(w.taken)]);
    expect(r.results[0]).toEqual({ source_id: 'src-9', target_id: mapped, outcome: 'created' });
    expect(r.results[1].outcome).toBe('created');
    expect(r.results[1].target_id).not.toBe(w.taken);
    expect(await row(w.taken)).toMatchObject({ org_id: w.other, body: 'theirs' });
  });

  it('fails a bad item with its reason while the rest of the batch lands', async () => {
    const good = newUuid();
    const r = await run(w.org, [
      note('b1', { body: '' }),
      note('b2', { chat_id: `${randomDigits()}@c.us`, org_phone: null }),
      note('b3', { media: { path: 'x.jpg' } }),
      note('b4', { timestamp: 'yesterday' }),
      note(good),
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results[0].reason).toMatch(/body/);
    expect(r.results[1].reason).toMatch(/no phone of this organization holds the chat/);
    expect(r.results[2].reason).toMatch(/media/);
    expect(r.results[3].reason).toMatch(/timestamp/);
    expect(await row(good)).toMatchObject({ org_id: w.org });
  });

  it("never reads or changes another organization's notes, nor puts a note on their phone", async () => {
    const theirs = await t.prisma.inboxNote.findMany({ where: { org_id: w.other } });
    const r = await run(w.org, [
      { ...note(w.taken, { body: 'overwrite?' }), target_id: w.taken },
      { ...note(newUuid(), { org_phone: null }), phone_id: w.q1 },
    ]);
    expect(r.results[0].target_id).not.toBe(w.taken);
    expect((await row(r.results[1].target_id!))?.phone_id).toBe(w.p1);
    expect(await t.prisma.inboxNote.findMany({ where: { org_id: w.other } })).toEqual(theirs);
  });
});
