import { Errors, type ErrorField, type SetChatAccessRequest, type UpdateChatAccessRequest } from '@mapi/contracts';
import { actorOf, requireManager } from '../../access';
import type { AuditRepository } from '../../repositories/audit-repository';
import type { MemberRepository } from '../../repositories/member-repository';

/** The chats service's side: sets the overrides (chats.v1.chat.set-access); 404 ServiceError when a chat is out of reach. */
export type SetChatAccess = (request: SetChatAccessRequest) => Promise<{ updated: number }>;

/**
 * PATCH /chats/access: per-chat, per-member overrides of access. The members service owns the route
 * because it knows who the members are: every email of `access` must be a member of the
 * organization (422 naming each other key, nothing changes); the values live with the chat in the
 * chats service's `chat_properties`, which sets them all or nothing (404 when any chat is out of
 * reach). Emails are stored in lower case. One audit entry `chat.access_updated` per request.
 */
export class UpdateChatAccess {
  constructor(
    private readonly members: MemberRepository,
    private readonly audit: AuditRepository,
    private readonly setAccess: SetChatAccess,
  ) {}

  async execute({ ctx, body }: UpdateChatAccessRequest): Promise<null> {
    requireManager(ctx);
    const access: Record<string, boolean> = {};
    for (const [key, value] of Object.entries(body.access)) access[key.trim().toLowerCase()] = value;
    const emails = Object.keys(access);
    const found = emails.length ? await this.members.byEmails(ctx.org_id, emails) : [];
    const known = new Set(found.map((m) => m.email));
    const unknown: Record<string, ErrorField> = {};
    for (const key of Object.keys(body.access)) {
      if (!known.has(key.trim().toLowerCase()))
        unknown[`body.access.${key}`] = { message: 'not a member of this organization', value: key };
    }
    if (Object.keys(unknown).length) throw Errors.validation(unknown);
    const chatIds = [...new Set(body.chat_ids)];
    const replace = body.replace ?? false;
    const { updated } = await this.setAccess({ ctx, body: { chat_ids: chatIds, access, replace } });
    await this.audit.record(undefined, ctx.org_id, {
      ...actorOf(ctx),
      action: 'chat.access_updated',
      target: chatIds.length === 1 ? chatIds[0] : null,
      details: { chat_ids: chatIds, access, replace, updated },
    });
    return null;
  }
}
