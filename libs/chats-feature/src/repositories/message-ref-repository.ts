import { splitMessageId } from '@mapi/contracts';
import { Prisma, type PrismaClient } from '@mapi/db';
import { reachSql, type MemberChatAccess } from '../rows/chat-reach';

/** A stored message with the phone whose copy it is (the acting phone of an action). */
export type HeldMessage = Omit<Prisma.MessageModel, 'id'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Finds one message by its message id or its send's queue id. The organization is part of every query. */
export class MessageRefRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * The copy of the message `ref` names (a message_id `<from_me>_<chat_id>_<unique_id>`, or a queue id:
   * the sent message's sent_message_id) held by one of `phoneIds` (null: any phone of the
   * organization). Several phones may hold a copy of the same message (a group both are in): the
   * first by phone_id answers. A queue id whose job was not sent yet names no message. For a member
   * (`member` given), only the copies of chats within their labels and overrides (rows/chat-reach.ts).
   */
  async find(orgId: string, ref: string, phoneIds: string[] | null, member: MemberChatAccess | null = null): Promise<HeldMessage | null> {
    if (member) {
      const phone = await this.phoneOfMemberCopy(orgId, ref, phoneIds, member);
      return phone ? this.find(orgId, ref, [phone]) : null;
    }
    if (phoneIds && !phoneIds.length) return null;
    const phones = phoneIds ? { phone_id: phoneIds.length === 1 ? phoneIds[0] : { in: phoneIds } } : {};
    const parsed = splitMessageId(ref);
    const byId: Prisma.MessageWhereInput[] = parsed ? [{ chat_id: parsed.chat_id, message_id: ref }] : [];
    const byQueueId: Prisma.MessageWhereInput[] = UUID.test(ref) ? [{ sent_message_id: ref.toLowerCase() }] : [];
    const ways = [...byId, ...byQueueId];
    if (!ways.length) return null;
    return this.prisma.message.findFirst({
      where: { org_id: orgId, ...phones, OR: ways },
      omit: { id: true },
      orderBy: { phone_id: 'asc' },
    });
  }

  /** The first phone (by phone_id) whose copy of `ref` lies in a chat within the member's reach. */
  private async phoneOfMemberCopy(orgId: string, ref: string, phoneIds: string[] | null, member: MemberChatAccess): Promise<string | null> {
    const parsed = splitMessageId(ref);
    const ways: Prisma.Sql[] = [];
    if (parsed) ways.push(Prisma.sql`(m.chat_id = ${parsed.chat_id} AND m.message_id = ${ref})`);
    if (UUID.test(ref)) ways.push(Prisma.sql`m.sent_message_id = ${ref.toLowerCase()}`);
    if (!ways.length) return null;
    const rows = await this.prisma.$queryRaw<{ phone_id: string }[]>`
      SELECT m.phone_id FROM messages m
      WHERE m.org_id = ${orgId}::uuid AND (${Prisma.join(ways, ' OR ')}) ${reachSql(orgId, { phoneIds, member }, 'm')}
      ORDER BY m.phone_id LIMIT 1`;
    return rows[0]?.phone_id ?? null;
  }
}
