import type { IngestEvent } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';

type Tx = Prisma.TransactionClient;
type GroupsIn = Extract<IngestEvent, { kind: 'groups-upsert' }>;

/**
 * The groups' settings the connector reported, onto the phone's copy of each chat (the chat exists:
 * ensureChats ran first). A setting the connector did not report is left as it was.
 */
export async function applyGroupSettings(tx: Tx, e: GroupsIn): Promise<void> {
  for (const g of e.groups) {
    const data = {
      ...(g.description !== undefined ? { group_description: g.description || null } : {}),
      ...(g.announce !== undefined ? { messages_admins_only: g.announce } : {}),
      ...(g.restrict !== undefined ? { info_admins_only: g.restrict } : {}),
      ...(g.member_add_admins_only !== undefined ? { add_members_admins_only: g.member_add_admins_only } : {}),
    };
    if (Object.keys(data).length) await tx.chat.updateMany({ where: { org_id: e.org_id, phone_id: e.phone_id, chat_id: g.chat_id }, data });
  }
}
