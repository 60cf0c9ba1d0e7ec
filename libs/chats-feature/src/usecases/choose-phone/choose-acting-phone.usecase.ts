import { Errors, type ChoosePhoneRequest, type ChoosePhoneResponse, type PhoneDirectory, type PhoneDirectoryEntry } from '@mapi/contracts';
import type { ChatRepository } from '../../repositories/chat-repository';

/**
 * The phone that acts on a chat when the caller named none (spec 4.4): among the organization's
 * phones within the token's scope that are connected and have the chat — and, when the action needs
 * it, are an admin of the group — the one created first (ties: smallest phone_id). Deterministic, so
 * repeated calls act through the same phone. None: 400 ERROR saying why. Which phones are connected
 * comes from the phones service; which have the chat, from this service's own tables.
 */
export class ChooseActingPhone {
  constructor(
    private readonly chats: ChatRepository,
    private readonly directory: PhoneDirectory,
  ) {}

  async execute({ ctx, chat_id, need_admin }: ChoosePhoneRequest): Promise<ChoosePhoneResponse> {
    const scope = ctx.phone_scope;
    if (scope && scope.length === 0) throw Errors.phoneUnavailable('The token reaches no phone');
    const connected = (await this.directory({ org_id: ctx.org_id, phone_ids: scope, connected: true }))
      .filter((p): p is PhoneDirectoryEntry & { org_phone: string } => p.org_phone !== null)
      .map((p) => ({ phone_id: p.phone_id, org_phone: p.org_phone }));
    const able = await this.chats.phonesWithChat(ctx.org_id, chat_id, connected, need_admin);
    const chosen = connected.find((p) => able.has(p.phone_id)); // the directory lists oldest first
    if (chosen) return chosen;
    throw Errors.phoneUnavailable(
      need_admin
        ? "No connected phone within the token's scope is an admin of this group: name one with x-phone"
        : "No connected phone within the token's scope has this chat: name one with x-phone",
    );
  }
}
