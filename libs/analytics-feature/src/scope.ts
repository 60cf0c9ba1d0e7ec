import { Errors, type ChatCopy, type RequestContext } from '@mapi/contracts';
import type { MetricsScope } from './repositories/metrics-repository';

/**
 * The phones an analytics answer counts: x-phone's, else the token's (or member's) phones, else
 * every phone of the organization; `phone_id` narrows further, and a phone outside those is 404
 * (as another organization's). A phone id of no phone of the organization matches no row.
 */
export function scopeOf(ctx: RequestContext, phoneId?: string): MetricsScope {
  const allowed = ctx.phone ? [ctx.phone.phone_id] : ctx.phone_scope;
  if (phoneId === undefined) return { orgId: ctx.org_id, phones: allowed };
  if (allowed && !allowed.includes(phoneId)) throw Errors.notFound(`Phone ${phoneId} not found`);
  return { orgId: ctx.org_id, phones: [phoneId] };
}

/** A member's reach over chat copies (chats.v1.chat.copies-in-reach): of the given copies, those the ctx may see. */
export type ChatReach = (ctx: RequestContext, copies: ChatCopy[]) => Promise<ChatCopy[]>;

export const isMember = (ctx: RequestContext): boolean => ctx.member?.role === 'member';
