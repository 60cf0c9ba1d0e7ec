import {
  ImportChatItemSchema,
  isGroupChatId,
  type ImportBatchResponse,
  type ImportChatItem,
  type ImportChatsRequest,
  type IngestMessage,
  type PhoneDirectory,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { storedPins, withPinChange, type StoredPin } from '../../chats/pinned-messages';
import { learnContacts } from '../../ingest/learn-contacts';
import { answer, failed, notOurPhone, phonesOfOrg, sameValue as same, validateItems, writeInHalves } from '../../imports/import-items';
import {
  storedCopies,
  storedParticipants,
  storedValues,
  writeChats,
  writeParticipants,
  type ChatCopyWrite,
  type ImportedChatCopy,
  type ImportedChatValues,
  type ImportedParticipant,
} from '../../imports/write-chats';

type Chat = ImportChatItem['chat'];
const keyOf = (phoneId: string, chatId: string) => `${phoneId}\u0000${chatId}`;
const sortedKeys = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

const chatTypeOf = (chat: Chat): string =>
  chat.chat_type === 'user' || chat.chat_type === 'group' || chat.chat_type === 'business'
    ? chat.chat_type
    : isGroupChatId(chat.chat_id)
      ? 'group'
      : 'user';

/** The source's live pins joined to the stored ones (an older pin or unpin than the stored one changes nothing). */
function pinsOf(chat: Chat, stored: unknown): unknown {
  let pins: StoredPin[] = storedPins(stored);
  for (const p of chat.pinned_messages ?? [])
    pins = withPinChange(pins, { message_id: p.message_id, at: p.pinned_at, pinned: true, expires_at: p.expires_at ?? null }) ?? pins;
  return pins.length ? pins : (stored ?? null);
}

/** One phone's copy as the item makes it of the stored one (what the source does not give stays as stored). */
function copyOf(
  item: ImportChatItem,
  phone: { phone_id: string; org_phone: string | null },
  stored: ImportedChatCopy | undefined,
): ImportedChatCopy {
  const c = item.chat;
  return {
    phone_id: phone.phone_id,
    chat_id: c.chat_id,
    chat_name: c.chat_name ?? stored?.chat_name ?? null,
    chat_type: chatTypeOf(c),
    org_phone: phone.org_phone ?? stored?.org_phone ?? null,
    group_description: c.group_description ?? stored?.group_description ?? null,
    info_admins_only: c.info_admins_only ?? stored?.info_admins_only ?? false,
    messages_admins_only: c.messages_admins_only ?? stored?.messages_admins_only ?? false,
    add_members_admins_only: c.add_members_admins_only ?? stored?.add_members_admins_only ?? null,
    pinned_messages: pinsOf(c, stored?.pinned_messages),
  };
}

/** What only a new copy takes: the source's creation time and that phone's unread count. */
function newCopy(copy: ImportedChatCopy, chat: Chat): ChatCopyWrite {
  const created =
    chat.created_at && !Number.isNaN(Date.parse(chat.created_at)) ? new Date(chat.created_at).toISOString() : new Date().toISOString();
  const counts = chat.unread_count && typeof chat.unread_count === 'object' ? (chat.unread_count as Record<string, unknown>) : {};
  const unread = copy.org_phone ? counts[copy.org_phone] : undefined;
  return { ...copy, created_at: created, unread_count: typeof unread === 'number' && Number.isInteger(unread) && unread >= 0 ? unread : 0 };
}

/** The organization's values as the item makes them of the stored ones (what it does not give stays). */
function valuesOf(item: ImportChatItem, stored: ImportedChatValues | undefined): ImportedChatValues {
  const chatId = item.chat.chat_id;
  return {
    chat_id: chatId,
    assigned_to: item.assigned_to !== undefined ? (item.assigned_to?.toLowerCase() ?? null) : (stored?.assigned_to ?? null),
    custom_properties: sortedKeys(
      item.custom_properties !== undefined ? (item.custom_properties ?? {}) : (stored?.custom_properties ?? {}),
    ),
    labels: item.labels
      ? [...new Map(item.labels.map((l) => [l.label_id, l.name.toLowerCase()]))].sort(([a], [b]) => (a < b ? -1 : 1))
      : (stored?.labels ?? []),
  };
}

/**
 * chats.v1.import.chats (internal, the importer): a batch of a source organization's chats. Each item
 * writes the copy of every target phone that holds the chat (name, type, group settings, pins; a new
 * copy also its creation time and unread count) and the organization's values on the chat (labels,
 * custom property values, assignee). Chat ids are natural and kept; an item naming a phone that is
 * not the organization's fails whole. Idempotent: an item that changes nothing is skipped. A
 * backfill: no chat events. Archived, muted and the like are not kept by this service (not imported).
 */
export class ImportChats {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly directory: PhoneDirectory,
  ) {}

  execute({ ctx, body }: ImportChatsRequest): Promise<ImportBatchResponse> {
    return writeInHalves(body.items, (items) => this.write(ctx, items));
  }

  private async write(ctx: ImportChatsRequest['ctx'], items: readonly unknown[]): Promise<ImportBatchResponse> {
    const orgId = ctx.org_id;
    const { valid, results } = validateItems(items, ImportChatItemSchema);
    const phones = await phonesOfOrg(
      this.directory,
      orgId,
      valid.flatMap((v) => v.item.phones.map((p) => p.phone_id)),
    );
    const ours = valid.filter(({ index, item }) => {
      const foreign = item.phones.find((p) => !phones.has(p.phone_id));
      if (foreign) results[index] = failed(item.source_id, notOurPhone(foreign.phone_id));
      return !foreign;
    });
    await this.prisma.$transaction(async (tx) => {
      const keys = ours.flatMap(({ item }) => item.phones.map((p) => ({ phone_id: p.phone_id, chat_id: item.chat.chat_id })));
      const stored = new Map((await storedCopies(tx, orgId, keys)).map((c) => [keyOf(c.phone_id, c.chat_id), c]));
      const participants = new Map(
        (
          await storedParticipants(
            tx,
            orgId,
            keys.filter((k) => isGroupChatId(k.chat_id)),
          )
        ).map((g) => [memberKey(g), g]),
      );
      const memberWrites = new Map<string, ImportedParticipant>();
      const values = await storedValues(tx, orgId, [...new Set(ours.map(({ item }) => item.chat.chat_id))].sort());
      const copies = new Map<string, ChatCopyWrite>();
      const changedValues = new Map<string, ImportedChatValues>();
      const partners: { org_id: string; phone_id: string; org_phone: string; messages: IngestMessage[] }[] = [];
      for (const { index, item } of ours) {
        let created = false;
        let changed = false;
        for (const p of item.phones) {
          for (const g of membersOf(item, p.phone_id)) {
            const was = memberWrites.get(memberKey(g)) ?? participants.get(memberKey(g));
            if (was && was.is_admin === g.is_admin && was.is_super_admin === g.is_super_admin) continue;
            memberWrites.set(memberKey(g), g);
            changed = true;
          }
          const key = keyOf(p.phone_id, item.chat.chat_id);
          const before = copies.get(key) ?? stored.get(key);
          const copy = copyOf(item, { phone_id: p.phone_id, org_phone: p.org_phone ?? phones.get(p.phone_id) ?? null }, before);
          if (!before) created = true;
          else if (same(before, { ...before, ...copy })) continue;
          changed = true;
          copies.set(key, newCopy(copy, item.chat)); // created_at and unread_count are written on a new copy only
          partners.push({
            org_id: orgId,
            phone_id: p.phone_id,
            org_phone: copy.org_phone ?? '',
            messages: [partnerSeen(item.chat.chat_id)],
          });
        }
        const beforeValues = changedValues.get(item.chat.chat_id) ?? values.get(item.chat.chat_id);
        const after = valuesOf(item, beforeValues);
        if (!same(beforeValues ?? { chat_id: after.chat_id, assigned_to: null, custom_properties: {}, labels: [] }, after)) {
          changedValues.set(after.chat_id, after);
          changed = true;
        }
        results[index] = {
          source_id: item.source_id,
          target_id: item.chat.chat_id,
          outcome: created ? 'created' : changed ? 'updated' : 'skipped',
        };
      }
      await writeChats(tx, orgId, [...copies.values()], [...changedValues.values()]);
      await writeParticipants(tx, orgId, [...memberWrites.values()]);
      await learnContacts(tx, partners); // a 1-1 chat's partner is a contact the phone has seen
    });
    return answer(results, items);
  }
}

const memberKey = (g: ImportedParticipant) => `${g.phone_id}\u0000${g.chat_id}\u0000${g.contact_id}`;

/** A group's participants as the item gives them, on one phone's copy. */
function membersOf(item: ImportChatItem, phoneId: string): ImportedParticipant[] {
  if (!isGroupChatId(item.chat.chat_id) || !item.chat.members) return [];
  return Object.values(item.chat.members).map((m) => ({
    phone_id: phoneId,
    chat_id: item.chat.chat_id,
    contact_id: m.contact_id,
    is_admin: m.is_admin ?? false,
    is_super_admin: m.is_super_admin ?? false,
  }));
}

/** What learnContacts reads of a chat: its id (a 1-1 chat's partner; a group id is no contact). */
const partnerSeen = (chatId: string): IngestMessage => ({
  chat_id: chatId,
  unique_id: '',
  from_me: true,
  sender_phone: '',
  body: null,
  message_type: 'chat',
  timestamp: '',
  ack: 0,
});
