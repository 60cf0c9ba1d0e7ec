import { Errors, type ChoosePhoneRequest, type ChoosePhoneResponse } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';

/**
 * The phone that acts on a chat when the caller named none (spec 4.4): among the organization's
 * phones within the token's scope that are connected and have the chat — and, when the action needs
 * it, are an admin of the group — the one created first (ties: smallest phone_id). Deterministic, so
 * repeated calls act through the same phone. None: 400 ERROR saying why.
 */
export class ChooseActingPhone {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, chat_id, need_admin }: ChoosePhoneRequest): Promise<ChoosePhoneResponse> {
    const scope = ctx.phone_scope;
    if (scope && scope.length === 0) throw Errors.phoneUnavailable('The token reaches no phone');
    const rows = await this.prisma.$queryRaw<{ phone_id: string; org_phone: string }[]>`
      SELECT p.phone_id, p.org_phone
      FROM phones p
      JOIN chats c ON c.phone_id = p.phone_id AND c.chat_id = ${chat_id} AND c.org_id = p.org_id
      WHERE p.org_id = ${ctx.org_id}::uuid AND p.deleted_at IS NULL AND p.wa_state = 'CONNECTED' AND p.org_phone IS NOT NULL
        AND (${scope === null} OR p.phone_id = ANY(${scope ?? []}::text[]))
        AND (${!need_admin} OR EXISTS (
          SELECT 1 FROM group_participants g
          WHERE g.phone_id = p.phone_id AND g.chat_id = c.chat_id AND g.contact_id = p.org_phone AND g.is_admin))
      ORDER BY p.created_at, p.phone_id
      LIMIT 1`;
    if (rows.length) return rows[0];
    throw Errors.phoneUnavailable(
      need_admin
        ? 'No connected phone within the token\'s scope is an admin of this group: name one with x-phone'
        : 'No connected phone within the token\'s scope has this chat: name one with x-phone',
    );
  }
}
