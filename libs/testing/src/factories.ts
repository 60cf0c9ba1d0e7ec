import { randomBytes, randomUUID } from 'node:crypto';
import type { PrismaClient, Prisma } from '@mapi/db';
import { generateApiToken } from '@mapi/platform';

/** Factories for integration and end-to-end tests: each makes real rows and returns what a test needs. */

export async function createOrg(prisma: PrismaClient, overrides: Partial<Prisma.OrganizationCreateInput> = {}) {
  return prisma.organization.create({ data: { name: `Org ${randomBytes(3).toString('hex')}`, plan: 'pro', ...overrides } });
}

/** The media service's defaults for an organization (its own media_settings table). */
export async function setMediaSettings(
  prisma: PrismaClient,
  orgId: string,
  settings: { access_default?: string; link_expiry_seconds?: number },
) {
  return prisma.mediaSettings.upsert({ where: { org_id: orgId }, create: { org_id: orgId, ...settings }, update: settings });
}

export async function createToken(prisma: PrismaClient, orgId: string, options: { phoneIds?: string[]; revoked?: boolean } = {}) {
  const generated = generateApiToken();
  const row = await prisma.apiToken.create({
    data: {
      org_id: orgId,
      name: 'test token',
      token_prefix: generated.display_prefix,
      token_hash: generated.hash,
      phone_scoped: options.phoneIds !== undefined,
      phone_ids: options.phoneIds ?? [],
      revoked_at: options.revoked ? new Date() : null,
    },
  });
  return { id: row.id, token: generated.token };
}

let phoneSeq = 0;
export function randomDigits(length = 12): string {
  let s = String(1 + Math.floor(Math.random() * 9));
  while (s.length < length) s += String(Math.floor(Math.random() * 10));
  return s;
}

export async function createPhone(prisma: PrismaClient, orgId: string, overrides: Partial<Prisma.PhoneUncheckedCreateInput> = {}) {
  const digits = randomDigits();
  return prisma.phone.create({
    data: {
      phone_id: `phone-${randomBytes(8).toString('hex')}${(phoneSeq++).toString(36)}`,
      org_id: orgId,
      org_phone: `${digits}@c.us`,
      phone_name: 'Test phone',
      wa_state: 'CONNECTED',
      is_ready: true,
      ...overrides,
    },
  });
}

/**
 * The start of the scoping and isolation specs: an organization with two phones (p1, p2) and another
 * organization with one (q), created in that order (org, other, p1, p2, q).
 */
export async function createTwoPhoneOrgAndOther(prisma: PrismaClient) {
  // createPhone always gives a phone its number
  const phone = async (orgId: string) => (await createPhone(prisma, orgId)) as Prisma.PhoneModel & { org_phone: string };
  const org = await createOrg(prisma);
  const other = await createOrg(prisma);
  const p1 = await phone(org.id);
  const p2 = await phone(org.id);
  const q = await phone(other.id);
  return { org, other, p1, p2, q };
}

export interface MessageSeed {
  chatId: string;
  fromMe?: boolean;
  body?: string | null;
  timestamp?: Date;
  overrides?: Partial<Prisma.MessageUncheckedCreateInput>;
}

/** A stored message in the shape the chats service reads (spec 2.1 ids and defaults). */
export function messageRow(
  org: { id: string },
  phone: { phone_id: string; org_phone: string },
  seed: MessageSeed,
): Prisma.MessageUncheckedCreateInput {
  const fromMe = seed.fromMe ?? false;
  const uniqueId = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
  const body = seed.body === undefined ? `hello ${uniqueId.slice(-4)}` : seed.body;
  return {
    org_id: org.id,
    phone_id: phone.phone_id,
    chat_id: seed.chatId,
    message_id: `${fromMe}_${seed.chatId}_${uniqueId}`,
    unique_id: uniqueId,
    org_phone: phone.org_phone,
    sender_phone: fromMe ? phone.org_phone : seed.chatId.endsWith('@g.us') ? `${randomDigits()}@c.us` : seed.chatId,
    from_me: fromMe,
    body,
    message_type: 'chat',
    timestamp: seed.timestamp ?? new Date(),
    fts: body ? body.toLowerCase() : null,
    ...seed.overrides,
  };
}

export async function createMessages(
  prisma: PrismaClient,
  org: { id: string },
  phone: { phone_id: string; org_phone: string },
  seeds: MessageSeed[],
) {
  const rows = seeds.map((s) => messageRow(org, phone, s));
  await prisma.message.createMany({ data: rows });
  return rows;
}

export const newUuid = () => randomUUID();

/**
 * A phone's stored chat, with its listing state (latest message, activity time) computed from the
 * messages already stored for it, as ingestion would have kept it.
 */
export async function createChat(
  prisma: PrismaClient,
  org: { id: string },
  phone: { phone_id: string; org_phone: string | null },
  chat: { chatId: string; chatName?: string | null; chatType?: string; unread?: number; createdAt?: Date },
) {
  const chatType = chat.chatType ?? (chat.chatId.endsWith('@g.us') ? 'group' : 'user');
  const createdAt = chat.createdAt ?? new Date();
  await prisma.$executeRaw`
    INSERT INTO chats (org_id, phone_id, chat_id, chat_name, chat_type, org_phone, unread_count, created_at, updated_at, activity_at)
    VALUES (${org.id}::uuid, ${phone.phone_id}, ${chat.chatId}, ${chat.chatName ?? null}, ${chatType}, ${phone.org_phone}, ${chat.unread ?? 0}, ${createdAt}, ${createdAt}, ${createdAt})`;
  await prisma.$executeRaw`
    UPDATE chats c SET latest_message_id = m.id, latest_message_at = m."timestamp", activity_at = m."timestamp"
    FROM (SELECT id, "timestamp" FROM messages WHERE phone_id = ${phone.phone_id} AND chat_id = ${chat.chatId}
          ORDER BY "timestamp" DESC, id DESC LIMIT 1) m
    WHERE c.phone_id = ${phone.phone_id} AND c.chat_id = ${chat.chatId}`;
}

/** Minute `m` past 10:00 on 2026-01-01 (UTC): the times of the messages seedSharedAndSoloChats stores. */
export const seededMinute = (m: number) => new Date(Date.UTC(2026, 0, 1, 10, m));

/**
 * createTwoPhoneOrgAndOther's organizations and phones with the chats the chat-listing specs read:
 * `shared` on both of the organization's phones (p1's message at seededMinute(1), p2's at 7: p2's
 * copy is the most recent), `solo` on p1 only (minute 5), and the other organization's own copy of
 * `shared` (q's message at minute 9). `unread` sets the unread counts of the two copies of `shared`.
 */
export async function seedSharedAndSoloChats(prisma: PrismaClient, unread: { p1?: number; p2?: number } = {}) {
  const w = { ...(await createTwoPhoneOrgAndOther(prisma)), shared: `${randomDigits()}@c.us`, solo: `${randomDigits()}@c.us` };
  await createMessages(prisma, w.org, w.p1, [
    { chatId: w.shared, timestamp: seededMinute(1) },
    { chatId: w.solo, timestamp: seededMinute(5) },
  ]);
  await createMessages(prisma, w.org, w.p2, [{ chatId: w.shared, timestamp: seededMinute(7) }]);
  await createMessages(prisma, w.other, w.q, [{ chatId: w.shared, timestamp: seededMinute(9) }]);
  await createChat(prisma, w.org, w.p1, { chatId: w.shared, unread: unread.p1 });
  await createChat(prisma, w.org, w.p2, { chatId: w.shared, unread: unread.p2 });
  await createChat(prisma, w.org, w.p1, { chatId: w.solo });
  await createChat(prisma, w.other, w.q, { chatId: w.shared });
  return w;
}
