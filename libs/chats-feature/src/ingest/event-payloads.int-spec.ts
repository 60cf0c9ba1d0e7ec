import type { IngestEvent, IngestMessage } from '@mapi/contracts';
import { OutboxRelay, ensureStreams, streamNames, type DomainEvent } from '@mapi/events';
import { createOrg, createPhone, randomDigits, randomSuffix, registryPayload, testEnv, useTestDatabase } from '@mapi/testing';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { ApplyIngest } from './apply-ingest.usecase';

const t = useTestDatabase('ingest_event_payloads');
const namespace = `ingest-payloads-${randomSuffix()}`;
const codec = JSONCodec<DomainEvent>();
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl() });
  await ensureStreams(nc, namespace);
});
afterAll(async () => {
  const jsm = await nc.jetstreamManager();
  for (const name of Object.values(streamNames(namespace))) await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

/** Every event the relay publishes, read back from the stream as the webhooks intake and realtime read it. */
async function publishAll(): Promise<{ subject: string; event: DomainEvent }[]> {
  const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }));
  let total = 0;
  for (let n = await relay.relayOnce(); n > 0; n = await relay.relayOnce()) total += n;
  const consumer = await nc.jetstream().consumers.get(streamNames(namespace).events);
  const out: { subject: string; event: DomainEvent }[] = [];
  for await (const m of await consumer.fetch({ max_messages: total, expires: 2_000 }))
    out.push({ subject: m.subject, event: codec.decode(m.data) });
  return out;
}

describe('the events an ingest writes, as published', () => {
  it("carry, for every kind, the object the registry defines for it, on the kind's versioned subject", async () => {
    const org = await createOrg(t.prisma);
    const row = await createPhone(t.prisma, org.id);
    const p = { org_id: org.id, phone_id: row.phone_id, org_phone: row.org_phone as string };
    const chat = `${randomDigits()}@c.us`;
    const at = (s: number) => new Date(1_700_000_000_000 + s * 1000).toISOString();
    const mine: IngestMessage = {
      chat_id: chat,
      unique_id: 'P1',
      from_me: true,
      sender_phone: p.org_phone,
      body: 'hi',
      message_type: 'chat',
      timestamp: at(1),
      ack: 1,
    };
    const theirs: IngestMessage = { ...mine, unique_id: 'P2', from_me: false, sender_phone: chat, body: 'hello', timestamp: at(2) };
    const key = (m: IngestMessage) => ({ chat_id: chat, unique_id: m.unique_id, from_me: m.from_me });
    const react = (emoji: string, s: number): IngestEvent => ({
      ...p,
      kind: 'reaction',
      ...key(mine),
      reaction: { reaction_id: `RX${s}`, sender_phone: chat, reaction: emoji, timestamp: at(s) },
    });
    await new ApplyIngest(t.prisma).execute([
      { ...p, kind: 'messages-upsert', type: 'notify', messages: [mine, theirs] },
      { ...p, kind: 'receipt', ...key(mine), ack: 3 },
      { ...p, kind: 'edit', ...key(theirs), body: 'hello!' },
      react('👍', 5),
      react('', 6),
      { ...p, kind: 'poll-results', ...key(mine), poll_results: [{ name: 'Yes', voters: [chat] }] },
      { ...p, kind: 'delete', ...key(theirs) },
    ]);

    const written = await t.prisma.outboxEvent.findMany({ where: { org_id: org.id }, orderBy: { seq: 'asc' } });
    expect(written.map((r) => r.type)).toEqual([
      'chat.created',
      'message.created',
      'message.created',
      'message.ack.updated',
      'message.updated',
      'reaction.created',
      'reaction.updated',
      'message.updated',
      'message.deleted',
    ]);
    const published = (await publishAll()).filter((e) => e.event.org_id === org.id);
    expect(published.map((e) => e.event.event_id)).toEqual(written.map((r) => r.id));
    for (const { subject, event } of published) {
      expect(subject).toBe(`${namespace}.events.v1.${event.event_type}`);
      expect(event.data).toEqual(written.find((r) => r.id === event.event_id)?.payload); // untouched on the way
      expect(() => registryPayload({ type: event.event_type, payload: event.data })).not.toThrow();
    }
    const [chatCreated, , , ack] = published.map((e) => e.event.data as Record<string, unknown>);
    expect(chatCreated).toMatchObject({ chat_id: chat, org_phone: p.org_phone, phone_id: p.phone_id, is_group: false });
    expect(ack).toMatchObject({ unique_id: 'P1', ack: '3', body: 'hi' }); // the whole message, not the changed fields

    // Update events carry what they replaced, in the API's form; the others carry null.
    const previous = Object.fromEntries(published.map(({ event }, i) => [`${i}:${event.event_type}`, event.previous_attributes]));
    expect(previous['3:message.ack.updated']).toMatchObject({ ack: '1' });
    expect(previous['3:message.ack.updated']).not.toHaveProperty('body');
    expect(previous['4:message.updated']).toMatchObject({ body: 'hello', prev_body: null });
    expect(previous['6:reaction.updated']).toMatchObject({ reaction: '👍', reaction_id: 'RX5' });
    expect(previous['7:message.updated']).toMatchObject({ poll_results: null });
    for (const key of ['0:chat.created', '1:message.created', '2:message.created', '5:reaction.created', '8:message.deleted'])
      expect(previous[key]).toBeNull();
  });

  it('a message read again with a higher ack reports the ack it replaced', async () => {
    const org = await createOrg(t.prisma);
    const row = await createPhone(t.prisma, org.id);
    const p = { org_id: org.id, phone_id: row.phone_id, org_phone: row.org_phone as string };
    const chat = `${randomDigits()}@c.us`;
    const sent: IngestMessage = {
      chat_id: chat,
      unique_id: 'R1',
      from_me: true,
      sender_phone: p.org_phone,
      body: 'yo',
      message_type: 'chat',
      timestamp: new Date().toISOString(),
      ack: 1,
    };
    await new ApplyIngest(t.prisma).execute([{ ...p, kind: 'messages-upsert', type: 'notify', messages: [sent] }]);
    await new ApplyIngest(t.prisma).execute([{ ...p, kind: 'messages-upsert', type: 'append', messages: [{ ...sent, ack: 3 }] }]);
    // As written (the relay splices the column into the event as the first test shows).
    const raised = await t.prisma.outboxEvent.findMany({ where: { org_id: org.id, type: 'message.ack.updated' } });
    expect(raised).toHaveLength(1);
    expect(raised[0].payload).toMatchObject({ unique_id: 'R1', ack: '3' });
    expect(raised[0].previous_attributes).toMatchObject({ ack: '1', delivery_info: { delivered_count: 0, read_count: 0 } });
  });
});
