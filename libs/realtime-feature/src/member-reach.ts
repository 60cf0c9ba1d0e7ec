import type { ChatCopy, MemberPrincipal, RequestContext } from '@mapi/contracts';
import type { DomainEvent } from '@mapi/events';

/**
 * A member's socket (a console session of role member) receives only the events of chats within
 * their phones, labels and overrides (docs/services/members.md, "What a member sees"); the chats
 * service decides (chats.v1.chat.copies-in-reach). Bearer tokens, owners and admins: rooms only.
 */
export type CopiesInReach = (ctx: RequestContext, copies: ChatCopy[]) => Promise<ChatCopy[]>;

/** The chat an event is about, when it has one (chat, message, reaction, notification, ticket, note, task events). */
export function chatOf(event: Pick<DomainEvent, 'data'>): string | null {
  const data = event.data as { chat_id?: unknown } | null;
  return data && typeof data.chat_id === 'string' && data.chat_id ? data.chat_id : null;
}

/** Events after which a chat's reach may have changed for a member: its cached answer is dropped. */
const REACH_CHANGING = new Set(['chat.label.updated', 'chat.created', 'chat.updated']);

/**
 * One member socket's view: each event in arrival order, checked against the member's reach with
 * answers cached per (phone, chat) for `ttlMs` (one call per chat a socket has not asked about
 * lately), so a grant or a denial reaches an open socket within ttlMs at the latest.
 */
export class MemberReachFilter {
  private readonly cache = new Map<string, { ok: boolean; until: number }>();
  private chain: Promise<void> = Promise.resolve();
  /** Events accepted and not yet decided. */
  pending = 0;

  constructor(
    private ctx: RequestContext,
    private readonly copiesInReach: CopiesInReach,
    private readonly ttlMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  static context(
    sub: { org_id: string; token_id: string; phone_ids: string[] | null },
    member: MemberPrincipal,
    phone: string | null,
  ): RequestContext {
    return {
      org_id: sub.org_id,
      token_id: sub.token_id,
      phone_scope: sub.phone_ids,
      phone: phone ? { phone_id: phone, org_phone: null } : null,
      member,
    };
  }

  /** Queues the decision on `event`; `send` runs (in arrival order) when the member may see it. */
  offer(event: DomainEvent, send: () => void): void {
    this.pending += 1;
    this.chain = this.chain
      .then(async () => {
        if (await this.allows(event)) send();
      })
      .catch(this.onError)
      .finally(() => {
        this.pending -= 1;
      });
  }

  /**
   * The member as re-authenticated (REALTIME_REAUTH_INTERVAL_MS): changed labels or phones apply to
   * the events offered from now on, with the cached answers dropped.
   */
  update(ctx: RequestContext): void {
    if (
      JSON.stringify([ctx.phone_scope, ctx.phone, ctx.member?.label_ids ?? null]) ===
      JSON.stringify([this.ctx.phone_scope, this.ctx.phone, this.ctx.member?.label_ids ?? null])
    )
      return;
    this.ctx = ctx;
    this.cache.clear();
  }

  /** Resolves once every event offered so far is decided (tests). */
  idle(): Promise<void> {
    return this.chain;
  }

  private async allows(event: DomainEvent): Promise<boolean> {
    const chatId = chatOf(event);
    const phones = this.ctx.phone ? [this.ctx.phone.phone_id] : this.ctx.phone_scope;
    // events of no chat: as for any socket of these phones (none of another phone, none tied to no phone when narrowed)
    if (!chatId || !event.phone_id) return phones === null || (!!event.phone_id && phones.includes(event.phone_id));
    const key = `${chatId}\u0000${event.phone_id}`;
    // labels are the chat's (every copy's): drop the answers of each of its copies
    if (REACH_CHANGING.has(event.event_type)) for (const k of this.cache.keys()) if (k.startsWith(`${chatId}\u0000`)) this.cache.delete(k);
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.ok;
    const reached = await this.copiesInReach(this.ctx, [{ phone_id: event.phone_id, chat_id: chatId }]);
    const ok = reached.some((c) => c.phone_id === event.phone_id && c.chat_id === chatId);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { ok, until: Date.now() + this.ttlMs });
    return ok;
  }
}
