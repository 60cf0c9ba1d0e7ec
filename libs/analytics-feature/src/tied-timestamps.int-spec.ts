import { createOrg, useTestDatabase } from '@mapi/testing';
import { applyFacts } from './ingest/apply-facts';
import type { MessageFact } from './ingest/message-facts';

/**
 * Messages of one chat that share a timestamp (a second's precision makes it common): the intake folds
 * a batch onto the chat's stored state in Postgres's (at, message_id) order, the order a recomputation
 * reads, so a chat counted batch by batch gets the responses it gets counted all at once.
 */
describe('analytics intake: new messages sharing a timestamp', () => {
  const t = useTestDatabase('analytics_ties_int', { poolSize: 2 });
  const T = Date.parse('2026-11-02T08:00:00Z');
  const chat_id = '15550001234@c.us';

  const fact = (org_id: string, id: string, at: number, from_me: boolean): MessageFact => ({
    org_id,
    phone_id: 'phone-ties00000001',
    chat_id,
    message_id: `${from_me}_${chat_id}_${id}`,
    at,
    from_me,
    flagged: false,
    version: T,
  });
  // The same second: in (at, message_id) order B, D (incoming), then C, E (outgoing): C answers A, E answers nothing.
  const script = (org: string) => ({
    first: [fact(org, 'A', T, false)],
    tied: [
      fact(org, 'B1', T + 1000, false),
      fact(org, 'C0', T + 1000, true),
      fact(org, 'D3', T + 1000, false),
      fact(org, 'E2', T + 1000, true),
    ],
  });
  const apply = (facts: MessageFact[]) => t.prisma.$transaction((tx) => applyFacts(tx, facts));
  const responses = (org: string) =>
    t.prisma.$queryRaw<{ incoming: string; response: string; next: boolean }[]>`
      SELECT incoming_message_id AS incoming, response_message_id AS response, is_next AS next FROM analytics_responses
      WHERE org_id = ${org}::uuid ORDER BY incoming_at, incoming_message_id`;
  const state = (org: string) =>
    t.prisma.$queryRaw<{ waiting: string | null }[]>`
      SELECT waiting_message_id AS waiting FROM analytics_chat_states WHERE org_id = ${org}::uuid`;

  it('folds the batch in (at, message_id) order: the same responses as counting the chat at once', async () => {
    const [batched, atOnce] = [(await createOrg(t.prisma)).id, (await createOrg(t.prisma)).id];
    const b = script(batched);
    await apply(b.first); // the chat has a state: the next batch is folded onto it
    await apply(b.tied);
    const o = script(atOnce);
    await apply([...o.first, ...o.tied]); // no state yet: computed from the chat's rows
    const expected = [{ incoming: `false_${chat_id}_A`, response: `true_${chat_id}_C0`, next: false }];
    expect(await responses(atOnce)).toEqual(expected);
    expect(await responses(batched)).toEqual(expected);
    expect(await state(batched)).toEqual([{ waiting: null }]);
    expect(await state(atOnce)).toEqual([{ waiting: null }]);
  });
});
