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

/**
 * Label narrowing (chats.v1.chat.copies-with-label): of the given copies, those within the ctx's reach
 * (a member's labels and overrides included) carrying the label, by name (any case) or id.
 */
export type ChatLabels = (ctx: RequestContext, copies: ChatCopy[], label: string) => Promise<ChatCopy[]>;

/** The chat copies with unread messages within the ctx's reach, on `phoneId` when given (chats.v1.chat.count-unread). */
export type UnreadChats = (ctx: RequestContext, phoneId?: string) => Promise<number>;

export const isMember = (ctx: RequestContext): boolean => ctx.member?.role === 'member';

/** A member's figures (and figures by label) are narrowed from at most this many chats of the period (docs/services/analytics.md, "Member reach"). */
export const MEMBER_PERIOD_CHATS = 20_000;

/**
 * A scope narrowed to those of the period's chat copies (`candidates`, read up to MEMBER_PERIOD_CHATS + 1)
 * that `narrow` keeps; more is a 422 on `to`, worded "<what> more than N chats: … for <whose> figures".
 */
export async function narrowedScope(
  scope: MetricsScope,
  candidates: ChatCopy[],
  narrow: (copies: ChatCopy[]) => Promise<ChatCopy[]>,
  to: string,
  what = 'the period holds',
  whose = "a member's",
): Promise<MetricsScope> {
  if (candidates.length > MEMBER_PERIOD_CHATS) {
    const message = `${what} more than ${MEMBER_PERIOD_CHATS} chats: a shorter period or one phone (phone_id) for ${whose} figures`;
    throw Errors.validation({ to: { message, value: to } }, message);
  }
  return { ...scope, chats: candidates.length ? await narrow(candidates) : [] };
}

/**
 * A member's scope: narrowed to those of the period's chat copies (`candidates`, read up to
 * MEMBER_PERIOD_CHATS + 1) within their reach; more is a 422 on `to`, worded "<what> more than N chats".
 */
export function memberScope(
  ctx: RequestContext,
  scope: MetricsScope,
  candidates: ChatCopy[],
  reach: ChatReach,
  to: string,
  what = 'the period holds',
): Promise<MetricsScope> {
  return narrowedScope(scope, candidates, (copies) => reach(ctx, copies), to, what);
}
