import { mediaLink, type ObjectStorage } from '@mapi/storage';
import { createChat, createMessages, createOrg, createToken, randomDigits, type MessageSeed } from '@mapi/testing';
import { client } from './http';
import { connectedSandboxPhone } from './queue-phone';
import type { Stack } from './stack';

const ok = (what: string, res: { status: number; body: any }) => {
  if (res.status >= 300) throw new Error(`seeding ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

export interface SourceOrg {
  orgId: string;
  token: string;
  phones: { phoneId: string; number: string }[];
  chats: string[];
  group: string;
  messages: number;
  /** The stored files of media messages, by message id: `name` under the bucket, and the bytes. */
  media: Map<string, { name: string; bytes: string }>;
}

/** Where stack A's media app keeps its files and how it links them. */
export interface SourceMedia {
  storage: ObjectStorage;
  baseUrl: string;
}

/**
 * The organization an import reads (stack A playing the hosted service): two connected sandbox
 * phones (one chat on both), `chats` individual chats and a group with `perChat` messages each —
 * some edited, deleted, starred, flagged, with media and reactions — labels and a custom property on
 * chats, tickets with a quoted message, notes, an FAQ, a webhook and a workflow. Media messages have
 * their file in A's media storage, linked as A's media app links it.
 */
export async function seedSourceOrg(stack: Stack, options: { chats: number; perChat: number; media: SourceMedia }): Promise<SourceOrg> {
  const p = stack.prisma;
  const org = await createOrg(p);
  const token = (await createToken(p, org.id)).token;
  const a = client(stack.baseUrl, token);
  const phones = await Promise.all([connectedSandboxPhone(a), connectedSandboxPhone(a)]);
  const rows = phones.map((ph) => ({ phone_id: ph.phoneId, org_phone: `${ph.number}@c.us` }));
  const chats = Array.from({ length: options.chats }, () => `${randomDigits()}@c.us`);
  const group = `${randomDigits(18)}@g.us`;
  const start = Date.UTC(2025, 5, 1);
  let n = 0;
  const media = new Map<string, { name: string; bytes: string }>();
  for (const chatId of [...chats, group]) {
    const files: { name: string; bytes: string }[] = [];
    const seeds: MessageSeed[] = Array.from({ length: options.perChat }, (_, i) => {
      const at = new Date(start + n++ * 1000);
      const kind = i % 50;
      const overrides =
        kind === 1
          ? { prev_body: 'before the edit', ack: 3 }
          : kind === 2
            ? { is_deleted: true, body: null, fts: null }
            : kind === 3
              ? { is_starred: true }
              : kind === 4
                ? { flag_status: true, flag_response_time: 42 }
                : kind === 5
                  ? { has_reaction: true }
                  : kind === 6
                    ? mediaOverrides(options.media.baseUrl, `${org.id}/${chatId}/m${n}/photo ${n}.jpg`, files)
                    : {};
      return { chatId, fromMe: i % 3 === 0, timestamp: at, overrides: overrides as MessageSeed['overrides'] };
    });
    const stored = await createMessages(p, org, rows[0], seeds);
    const withMedia = stored.filter((m) => m.has_media);
    await Promise.all(
      withMedia.map((m, i) => options.media.storage.write({ bucket: 'message-media', name: files[i].name }, files[i].bytes)),
    );
    withMedia.forEach((m, i) => media.set(m.message_id, files[i]));
    const reacted = stored.filter((m) => m.has_reaction);
    await p.messageReaction.createMany({
      data: reacted.map((m, i) => ({
        phone_id: rows[0].phone_id,
        message_id: m.message_id,
        sender_phone: chatId === group ? `${randomDigits()}@c.us` : chatId,
        org_id: org.id,
        chat_id: chatId,
        reaction_id: `R${i}${m.unique_id}`,
        reaction: '👍',
        reacted_at: new Date((m.timestamp as Date).getTime() + 500),
      })),
    });
    await createChat(p, org, rows[0], { chatId, chatName: chatId === group ? 'Imported group' : `Customer ${chatId.slice(0, 6)}` });
  }
  // The first chat is on the second phone too (its own copy, its own messages).
  await createMessages(p, org, rows[1], [{ chatId: chats[0], body: 'from the second phone', timestamp: new Date(start - 60_000) }]);
  await createChat(p, org, rows[1], { chatId: chats[0] });

  const [label, property] = await Promise.all([
    a.post('/labels/create', { name: 'vip', color: '#ff0000' }).then((r) => ok('label', r)),
    a.post('/custom-properties/create', { property_name: 'Tier', property_value_type: 'text' }).then((r) => ok('property', r)),
    a.post('/labels/create', { name: 'lead' }).then((r) => ok('label 2', r)),
  ]);
  void label;
  ok('chat labels', await a.patch('/chats/labels', { chat_ids: chats.slice(0, 3), labels: 'vip,lead' }));
  ok(
    'chat values',
    await a.patch(`/chats/${chats[1]}`, { custom_properties: { [property.property_id]: 'gold' }, assigned_to: 'agent@example.com' }),
  );
  const quoted = (await a.get(`/chats/${chats[0]}/messages?limit=1`)).body.messages[0].message_id as string;
  await Promise.all([
    a
      .post('/tickets/create', { chat_id: chats[0], subject: 'Refund', quoted_message_id: quoted, priority: 3, labels: 'vip' })
      .then((r) => ok('ticket', r)),
    a.post('/tickets/create', { chat_id: chats[2], subject: 'Question', status: 'closed' }).then((r) => ok('ticket 2', r)),
    a
      .post('/note/create', { chat_id: chats[0], message: 'called the customer' }, { 'x-phone': phones[0].phoneId })
      .then((r) => ok('note', r)),
    a.post('/knowledge-base/faq/create', { question: 'Opening hours?', answer: 'Nine to five.' }).then((r) => ok('faq', r)),
    a
      .post('/webhooks', { hookUrl: 'https://hooks.example.com/source', integrationName: ['message.created', 'ticket.created'] })
      .then((r) => ok('webhook', r)),
    a
      .post('/workflows/create', {
        name: 'Greeting',
        trigger: 'message.created',
        is_active: true,
        trigger_metadata: { first_action_id: 'reply' },
        actions: [{ id: 'reply', action_metadata: { type: 'send_message_to_chat', metadata: { message: 'hello' } }, next: null }],
      })
      .then((r) => ok('workflow', r)),
  ]);
  return { orgId: org.id, token, phones, chats, group, messages: (options.chats + 1) * options.perChat + 1, media };
}

/** An image message whose file is `name` in the message-media bucket (its bytes kept in `files`, in message order). */
function mediaOverrides(baseUrl: string, name: string, files: { name: string; bytes: string }[]): MessageSeed['overrides'] {
  const bytes = `image bytes of ${name}`;
  files.push({ name, bytes });
  const path = mediaLink(baseUrl, { bucket: 'message-media', name });
  const media = {
    path,
    mimetype: 'image/jpeg',
    size: bytes.length,
    filename: name.split('/').pop() ?? name,
    thumbnail: '',
    dimensions: { ar: 1, height: 64, width: 64 },
  };
  return { has_media: true, message_type: 'image', media };
}
