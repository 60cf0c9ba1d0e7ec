import { randomUUID } from 'node:crypto';
import { LocalFsStorage } from '@mapi/storage';
import { createMessages, createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { client } from '../http';
import { LEGACY_STORAGE_URL } from '../media-stack';
import { connectedSandboxPhone } from '../queue-phone';
import type { Stack } from '../stack';
import type { Fixtures } from './generated-requests';

export interface SeededWorld extends Fixtures {
  tokenA: string;
  /** Strings only organization B's data contains: an answer to A's token must hold none of them. */
  foreignSecrets: string[];
  /** A phone of A that the phone-lifecycle routes may log out, reset or delete (not the one the other routes use). */
  throwawayPhone: string;
}

const ok = (what: string, res: { status: number; body: any }) => {
  if (res.status >= 300) throw new Error(`seeding ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/**
 * Organization A with a connected sandbox phone, a chat with messages, a group, an FAQ, a document,
 * a webhook subscription, an event sink and a kept event, a workflow, a queued message and a broadcast
 * and a media file; organization B with the same kinds of rows, whose ids the generator sends with A's token.
 */
export async function seedWorld(stack: Stack, storageRoot: string): Promise<SeededWorld> {
  const p = stack.prisma;
  const [orgA, orgB] = [await createOrg(p), await createOrg(p)];
  const tokenA = (await createToken(p, orgA.id)).token;
  const tokenB = (await createToken(p, orgB.id)).token;
  const a = client(stack.baseUrl, tokenA);
  const b = client(stack.baseUrl, tokenB);
  const marker = `secret-of-b-${randomDigits(8)}`;

  const phone = await connectedSandboxPhone(a);
  const throwawayPhone = ok('throwaway phone', await a.post('/phones/create', { phone_name: 'Throwaway' })).phone_id as string;
  const phoneRow = { phone_id: phone.phoneId, org_phone: `${phone.number}@c.us` };
  const chatDigits = randomDigits();
  await createMessages(p, orgA, phoneRow, [{ chatId: `${chatDigits}@c.us` }, { chatId: `${chatDigits}@c.us`, fromMe: true }]);
  const participants = [randomDigits(), randomDigits()];
  const group = ok('group', await a.post('/sandbox/groups', { subject: 'Generated', participants }, { 'x-phone': phone.phoneId }));
  const sent = ok('send', await a.post('/message/send', { chat_id: chatDigits, message: 'seed' }, { 'x-phone': phone.phoneId }));
  const broadcast = ok(
    'broadcast',
    await a.post('/message/broadcast', { chat_ids: [chatDigits], message: 'seed', delay: 3600 }, { 'x-phone': phone.phoneId }),
  );

  // The rows below depend on none of each other: created together (an FAQ or a document waits for its embedding, up to KB_CREATE_WAIT_FOR_EMBEDDING_MS, each on its own).
  const doc = (text: string) => ({ document: { filename: 'notes.txt', base64: Buffer.from(text).toString('base64') } });
  const workflow = (name: string) => ({
    name,
    trigger: 'message.created',
    is_active: false,
    trigger_metadata: { first_action_id: 'reply' },
    actions: [{ id: 'reply', action_metadata: { type: 'send_message_to_chat', metadata: { message: 'seed' } }, next: null }],
  });
  const [faqA, faqB, [docA], [docB], [hookA], propertyA, propertyB, , workflowA, workflowB, [hookB]] = await Promise.all([
    a.post('/knowledge-base/faq/create', { question: 'Seeded question?', answer: 'Seeded answer.' }).then((r) => ok('faq A', r)),
    b.post('/knowledge-base/faq/create', { question: `${marker} question`, answer: `${marker} answer` }).then((r) => ok('faq B', r)),
    a.post('/knowledge-base/document/create', doc('Opening hours: nine to five.')).then((r) => ok('document A', r)),
    b.post('/knowledge-base/document/create', doc(`${marker} document`)).then((r) => ok('document B', r)),
    a.post('/webhooks', { hookUrl: 'https://hooks.example.com/a', integrationName: 'message.created' }).then((r) => ok('webhook A', r)),
    a
      .post('/custom-properties/create', { property_name: 'Seeded', property_value_type: 'dropdown', property_value: 'one,two' })
      .then((r) => ok('custom property A', r)),
    b.post('/custom-properties/create', { property_name: `${marker} property` }).then((r) => ok('custom property B', r)),
    b.post('/labels/create', { name: `${marker}-label` }).then((r) => ok('label B', r)),
    a.post('/workflows/create', workflow('Seeded')).then((r) => ok('workflow A', r)),
    b.post('/workflows/create', workflow(`${marker} workflow`)).then((r) => ok('workflow B', r)),
    b
      .post('/webhooks', { hookUrl: `https://hooks.example.com/${marker}`, integrationName: 'message.created' })
      .then((r) => ok('webhook B', r)),
  ]);

  // An event sink of each organization (docs/services/event-sinks.md), B's named with the marker, and an event
  // kept for each (a webhook_events row, as the intake stores it) for the redeliver routes' eventId.
  const sink = { transport: 'nats', url: 'nats://bus.example.com', events: 'message.created' };
  const [sinkA] = ok('event sink A', await a.post('/event-sinks', sink));
  const [sinkB] = ok('event sink B', await b.post('/event-sinks', { ...sink, name: `${marker} sink` }));
  const [eventA, eventB] = [randomUUID(), randomUUID()];
  for (const [id, org] of [
    [eventA, orgA.id],
    [eventB, orgB.id],
  ])
    await p.webhookEvent.create({
      data: { id, org_id: org, type: 'message.created', body: '{"event":"message.created"}', created_at: new Date() },
    });

  // An import run of each organization (its source refused at once: a loopback address no policy allows).
  const blockedSource = { from: 'http://127.0.0.2:9/v1', token: 'generated' };
  const [importA, importB] = [
    ok('import A', await a.post('/imports', blockedSource)),
    ok('import B', await b.post('/imports', blockedSource)),
  ];

  // An SLA policy of each organization (docs/services/analytics.md); B's named with the marker, so a leak of it shows.
  const policyA = ok(
    'sla policy A',
    await a.post('/analytics/sla-policies', { name: 'Seeded', kind: 'first_response', minutes: 30 }),
  ).policy;
  const policyB = ok(
    'sla policy B',
    await b.post('/analytics/sla-policies', { name: `${marker} policy`, kind: 'first_response', minutes: 30 }),
  ).policy;

  // A flag rule of each organization (docs/services/analytics.md "Flagging"); B's named with the marker.
  const ruleA = ok('flag rule A', await a.post('/analytics/flag-rules', { name: 'Seeded', kind: 'keyword', keywords: ['refund'] })).rule;
  const ruleB = ok('flag rule B', await b.post('/analytics/flag-rules', { name: `${marker} rule`, kind: 'waiting', minutes: 30 })).rule;

  const storage = new LocalFsStorage(storageRoot);
  await storage.write({ bucket: 'message-media', name: `${orgA.id}/generated/photo.jpg` }, 'a photo');
  await storage.write({ bucket: 'message-media', name: `${orgB.id}/generated/${marker}.jpg` }, 'b photo');
  const mediaA = `${LEGACY_STORAGE_URL}/message-media/${orgA.id}/generated/photo.jpg`;
  const mediaB = `${LEGACY_STORAGE_URL}/message-media/${orgB.id}/generated/${marker}.jpg`;

  const phoneB = await createPhone(p, orgB.id);
  await createMessages(p, orgB, { phone_id: phoneB.phone_id, org_phone: phoneB.org_phone ?? '' }, [
    { chatId: `${chatDigits}@c.us`, body: `${marker} message` },
  ]);

  return {
    tokenA,
    throwawayPhone,
    foreignSecrets: [marker],
    hints: {
      'x-phone': [phone.phoneId, phone.number],
      chat_id: [`${chatDigits}@c.us`, chatDigits, group.chat_id],
      'chat_ids[]': [chatDigits, group.chat_id],
      'participants[]': participants,
      context_id: [faqA.context_id],
      document_id: [docA.document_id],
      // a webhook subscription's id and an event sink's (each route family answers 404 for the other's)
      id: [hookA.id, sinkA.id],
      eventId: [eventA],
      integration_id: [hookA.integration_id],
      hookUrl: ['https://hooks.example.com/generated'],
      url: [mediaA],
      'urls[]': [mediaA, `${LEGACY_STORAGE_URL}/not-a-bucket/x.jpg`],
      queue_id: [sent.queue_id],
      'queue_ids[]': [sent.queue_id],
      broadcast_id: [broadcast.broadcast_id],
      unique_id: [sent.unique_id],
      property_id: [propertyA.property_id],
      workflow_id: [workflowA.id],
      import_id: [importA.import_id],
      // an import's source URL, or the start of an analytics period (docs/services/analytics.md)
      from: [blockedSource.from, '2026-11-01T00:00:00Z'],
      to: ['2026-11-08T00:00:00+01:00'],
      tz: ['Europe/Paris', 'Asia/Kolkata', 'UTC'],
      phone_id: [phone.phoneId],
      policy_id: [policyA.policy_id],
      rule_id: [ruleA.rule_id],
      // business hours (PUT /analytics/business-hours)
      time_zone: ['Europe/Paris', 'UTC'],
      start: ['09:00', '22:00'],
      end: ['17:00', '06:00'],
    },
    foreign: {
      'x-phone': [phoneB.phone_id],
      context_id: [faqB.context_id],
      document_id: [docB.document_id],
      id: [hookB.id, sinkB.id],
      eventId: [eventB],
      integration_id: [hookB.integration_id],
      property_id: [propertyB.property_id],
      workflow_id: [workflowB.id],
      import_id: [importB.import_id],
      phone_id: [phoneB.phone_id],
      policy_id: [policyB.policy_id],
      rule_id: [ruleB.rule_id],
      url: [mediaB],
      'urls[]': [mediaB],
      // GET /chats?search= with words only B's message holds (B's copy of A's chat id): nothing of B may come back
      search: [marker],
    },
  };
}
