import type { EventInput } from '@mapi/contracts';
import { Prisma, type PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { reachSql, reachesNothing, type MemberChatAccess } from '../rows/chat-reach';
import type { ChatPropertyValues, PhoneChatRow } from '../rows/chat-rows';

type Tx = Prisma.TransactionClient;

/** What one call sets (chats.v1.chat.set-properties): absent keys are left as they are. */
export interface ChatPropertyChanges {
  /** Replaces the chat's labels. */
  labels?: { label_id: string; name: string }[];
  /** Merged: a null value removes the key. */
  custom_properties?: Record<string, string | null>;
  assigned_to?: string | null;
  override_chat_access?: Record<string, unknown> | null;
  /** Merged into override_chat_access (an empty result: null). */
  merge_chat_access?: Record<string, boolean>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** JSON with its keys sorted, so equal objects compare equal whatever order their keys were written in. */
const sortedKeys = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1))) as T;

const NONE: ChatPropertyValues = { assigned_to: null, custom_properties: {}, override_chat_access: null, label_ids: [] };

/** The values after a change (pure: the use case's rule, tested without a database). */
export function applyChanges(before: ChatPropertyValues, c: ChatPropertyChanges): ChatPropertyValues {
  const custom = { ...before.custom_properties };
  for (const [key, value] of Object.entries(c.custom_properties ?? {})) {
    if (value === null) delete custom[key];
    else custom[key] = value;
  }
  let access = c.override_chat_access === undefined ? before.override_chat_access : c.override_chat_access;
  if (c.merge_chat_access) access = { ...(access ?? {}), ...c.merge_chat_access };
  if (access && !Object.keys(access).length) access = null;
  return {
    assigned_to: c.assigned_to === undefined ? before.assigned_to : c.assigned_to,
    custom_properties: custom,
    override_chat_access: access === null ? null : sortedKeys(access),
    label_ids: c.labels === undefined ? before.label_ids : [...new Set(c.labels.map((l) => l.label_id))].sort(),
  };
}

/** One chat's change, as `set` found it: the copy its events are of, the values before and after. */
export interface PropertyChange {
  copy: PhoneChatRow;
  before: ChatPropertyValues;
  after: ChatPropertyValues;
  /** The labels changed. */
  labels: boolean;
  /** The custom property values changed. */
  custom: boolean;
}

/** The events a chat's change writes (the use case's mapping, given to the repository). */
export type PropertyEvents = (orgId: string, change: PropertyChange) => EventInput[];

/**
 * The chats service's side of chat labels and custom property values (`chat_properties`,
 * `chat_labels`): one row per (organization, chat id), shared by the organization's phones that hold
 * the chat. The organization is part of every signature.
 */
export class ChatPropertiesRepository {
  constructor(
    private readonly prisma: PrismaClient,
    /** The events of one chat's change (chats/chat-property-events.ts): written in the change's transaction. */
    private readonly eventsOf: PropertyEvents,
  ) {}

  /**
   * The given chat ids that no phone within reach holds (null reach: every phone of the organization);
   * for a member, no copy within their labels and overrides either (rows/chat-reach.ts).
   */
  async missing(orgId: string, chatIds: string[], phoneIds: string[] | null, member: MemberChatAccess | null = null): Promise<string[]> {
    const ids = [...new Set(chatIds)];
    const reach = { phoneIds, member };
    if (reachesNothing(reach)) return ids;
    const found = await this.prisma.$queryRaw<{ chat_id: string }[]>`
      SELECT DISTINCT c.chat_id FROM chats c
      WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ANY(${ids}::text[]) ${reachSql(orgId, reach, 'c')}`;
    const held = new Set(found.map((r) => r.chat_id));
    return ids.filter((id) => !held.has(id));
  }

  /**
   * Sets the changes on every chat named, all or nothing: null (nothing written) when any is not held
   * by a phone within reach. The chat_properties rows are locked in chat_id order (created when
   * missing); for a member, a chat outside their labels and overrides counts as not held. chat.label.updated / chat.custom_properties.updated are written, in the same
   * transaction, for each chat whose labels / values changed, with the chat's most recently active
   * copy within reach. Answers how many chats changed.
   */
  async set(
    orgId: string,
    chatIds: string[],
    phoneIds: string[] | null,
    changes: ChatPropertyChanges,
    member: MemberChatAccess | null = null,
  ): Promise<number | null> {
    const ids = [...new Set(chatIds)].sort();
    const reach = { phoneIds, member };
    if (reachesNothing(reach)) return null;
    return this.prisma.$transaction(async (tx) => {
      const copies = await tx.$queryRaw<PhoneChatRow[]>`
        SELECT DISTINCT ON (chat_id) org_id::text AS org_id, phone_id, COALESCE(org_phone, '') AS org_phone, chat_id, chat_name, chat_type, created_at, updated_at
        FROM chats c
        WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ANY(${ids}::text[]) ${reachSql(orgId, reach, 'c')}
        ORDER BY chat_id, activity_at DESC, phone_id DESC`;
      if (copies.length !== ids.length) return null;
      const before = await lockValues(tx, orgId, ids);
      const events: EventInput[] = [];
      const changed: { chatId: string; after: ChatPropertyValues; labels: boolean }[] = [];
      for (const copy of copies) {
        const was = before.get(copy.chat_id) ?? NONE;
        const after = applyChanges(was, changes);
        after.custom_properties = sortedKeys(after.custom_properties);
        const labels = !same(was.label_ids, after.label_ids);
        const custom = !same(sortedKeys(was.custom_properties), after.custom_properties);
        if (
          !labels &&
          !custom &&
          was.assigned_to === after.assigned_to &&
          same(was.override_chat_access && sortedKeys(was.override_chat_access), after.override_chat_access)
        )
          continue;
        changed.push({ chatId: copy.chat_id, after, labels });
        events.push(...this.eventsOf(orgId, { copy, before: was, after, labels, custom }));
      }
      if (!changed.length) return 0;
      await tx.$executeRaw`
        UPDATE chat_properties p
        SET assigned_to = v.assigned_to, custom_properties = v.custom_properties::jsonb, override_chat_access = v.override_chat_access::jsonb, updated_at = now()
        FROM unnest(${changed.map((c) => c.chatId)}::text[], ${changed.map((c) => c.after.assigned_to)}::text[],
                    ${changed.map((c) => JSON.stringify(c.after.custom_properties))}::text[],
                    ${changed.map((c) => (c.after.override_chat_access === null ? null : JSON.stringify(c.after.override_chat_access)))}::text[])
          AS v(chat_id, assigned_to, custom_properties, override_chat_access)
        WHERE p.org_id = ${orgId}::uuid AND p.chat_id = v.chat_id`;
      const relabelled = changed.filter((c) => c.labels).map((c) => c.chatId);
      if (relabelled.length && changes.labels) {
        await tx.$executeRaw`DELETE FROM chat_labels WHERE org_id = ${orgId}::uuid AND chat_id = ANY(${relabelled}::text[])`;
        const labels = [...new Map(changes.labels.map((l) => [l.label_id, l.name.toLowerCase()])).entries()];
        if (labels.length) {
          const rows = relabelled.flatMap((chatId) => labels.map(([labelId, name]) => [chatId, labelId, name] as const));
          await tx.$executeRaw`
            INSERT INTO chat_labels (org_id, chat_id, label_id, label_name)
            SELECT ${orgId}::uuid, v.chat_id, v.label_id::uuid, v.label_name
            FROM unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[], ${rows.map((r) => r[2])}::text[]) AS v(chat_id, label_id, label_name)`;
        }
      }
      await writeEvents(tx, events);
      return changed.length;
    });
  }

  /**
   * A catalogue label renamed: its copies follow (idempotent). Chat labels by id (label_name, which
   * GET /chats?label= reads); a contact label by name in contacts.labels, the new name taking the old
   * one's place once (a contact holding both keeps one). How many rows changed.
   */
  async renameLabel(orgId: string, type: string, labelId: string, name: string, newName: string): Promise<number> {
    if (type === 'chat') {
      return this.prisma.$executeRaw`
        UPDATE chat_labels SET label_name = ${newName} WHERE org_id = ${orgId}::uuid AND label_id = ${labelId}::uuid AND label_name <> ${newName}`;
    }
    if (type !== 'contact' || name === newName) return 0;
    return this.prisma.$executeRaw`
      UPDATE contacts c SET labels = ARRAY(
          SELECT l FROM unnest(array_replace(c.labels, ${name}, ${newName})) WITH ORDINALITY AS t(l, i) GROUP BY l ORDER BY min(i)),
        updated_at = now()
      WHERE c.org_id = ${orgId}::uuid AND ${name} = ANY(c.labels)`;
  }

  /** A catalogue label deleted: chats lose it (by id), or contacts (by name). How many rows changed. */
  async dropLabel(orgId: string, type: string, labelId: string, name: string): Promise<number> {
    if (type === 'chat')
      return this.prisma.$executeRaw`DELETE FROM chat_labels WHERE org_id = ${orgId}::uuid AND label_id = ${labelId}::uuid`;
    if (type !== 'contact') return 0;
    return this.prisma.$executeRaw`
      UPDATE contacts SET labels = array_remove(labels, ${name}), updated_at = now() WHERE org_id = ${orgId}::uuid AND ${name} = ANY(labels)`;
  }

  /** Removes a property's value from every chat of the organization (its definition is gone); how many chats held one. */
  async dropProperty(orgId: string, propertyId: string): Promise<number> {
    return this.prisma.$executeRaw`
      UPDATE chat_properties SET custom_properties = custom_properties - ${propertyId}::text, updated_at = now()
      WHERE org_id = ${orgId}::uuid AND custom_properties ? ${propertyId}::text`;
  }
}

/** The values of the given chats, their chat_properties rows created when missing and locked (chat_id order). */
async function lockValues(tx: Tx, orgId: string, ids: string[]): Promise<Map<string, ChatPropertyValues>> {
  await tx.$executeRaw`
    INSERT INTO chat_properties (org_id, chat_id) SELECT ${orgId}::uuid, id FROM unnest(${ids}::text[]) AS id ORDER BY id
    ON CONFLICT (org_id, chat_id) DO NOTHING`;
  const rows = await tx.$queryRaw<
    {
      chat_id: string;
      assigned_to: string | null;
      custom_properties: Record<string, string>;
      override_chat_access: Record<string, unknown> | null;
    }[]
  >`
    SELECT chat_id, assigned_to, custom_properties, override_chat_access FROM chat_properties
    WHERE org_id = ${orgId}::uuid AND chat_id = ANY(${ids}::text[]) ORDER BY chat_id FOR UPDATE`;
  const labels = await tx.$queryRaw<{ chat_id: string; label_id: string }[]>`
    SELECT chat_id, label_id::text AS label_id FROM chat_labels WHERE org_id = ${orgId}::uuid AND chat_id = ANY(${ids}::text[]) ORDER BY chat_id, label_id`;
  const byChat = new Map<string, ChatPropertyValues>(
    rows.map((r) => [r.chat_id, { ...r, custom_properties: r.custom_properties ?? {}, label_ids: [] }]),
  );
  for (const l of labels) byChat.get(l.chat_id)?.label_ids.push(l.label_id);
  return byChat;
}
