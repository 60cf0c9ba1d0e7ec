import { Errors, type ChatView, type ImportItemResult, type PhoneDirectory, type RequestContext } from '@mapi/contracts';
import { randomUUID } from 'node:crypto';
import type { ChatLookup } from '../chat-lookup';

/** A chat a phone of an organization holds, for the stand-ins below. */
export interface HeldChat {
  org: string;
  phone: string;
  chat: string;
}

/** The chats service's GET /chats/{chat_id} over a list (another organization's chat is 404). */
export function chatsOf(held: HeldChat[]): ChatLookup {
  return {
    chat: async (ctx, chatId) => {
      const h = held.find((x) => x.org === ctx.org_id && x.chat === chatId);
      if (!h) throw Errors.notFound('Chat not found');
      return { chat_id: chatId, org_id: h.org, phone_id: h.phone } as ChatView;
    },
    message: async () => null,
  };
}

/** The phones service's directory over a list. */
export function phonesOf(phones: { org: string; phone: string; number: string | null }[]): PhoneDirectory {
  return async ({ org_id }) =>
    phones
      .filter((p) => p.org === org_id)
      .map((p) => ({ phone_id: p.phone, org_phone: p.number, wa_state: 'UNPAIRED', created_at: '2026-01-01T00:00:00.000Z' }));
}

/** The importer's context: the target organization, every phone, no member; token_id the import's id. */
export const importCtx = (org: string): RequestContext => ({ org_id: org, token_id: randomUUID(), phone_scope: null, phone: null });

/** The outcomes of a batch, in order. */
export const outcomes = (r: { results: ImportItemResult[] }) => r.results.map((x) => x.outcome);
