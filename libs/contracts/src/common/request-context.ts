import { z } from 'zod';

export const MemberRoleSchema = z.enum(['owner', 'admin', 'member']);
export type MemberRole = z.infer<typeof MemberRoleSchema>;

/** A console session's member, as the gateway established it from the session cookie. */
export const MemberPrincipalSchema = z.object({
  member_id: z.uuid(),
  session_id: z.uuid(),
  email: z.string(),
  role: MemberRoleSchema,
  /**
   * Lower-case label names (or label ids) a member (role member) is limited to: they see only chats
   * carrying one of them; null or absent: every label (always so for owners and admins).
   */
  label_ids: z.array(z.string()).nullable().optional(),
});
export type MemberPrincipal = z.infer<typeof MemberPrincipalSchema>;

/**
 * What the gateway has established about a request before a service sees it: the organization of
 * the token, the phones the token may reach, and the phone named by `x-phone` (when given).
 * Services scope every query by `org_id` and, where phones matter, by these phones.
 */
export const RequestContextSchema = z.object({
  org_id: z.uuid(),
  token_id: z.uuid(),
  /** phone_ids the token is scoped to; null when it reaches every phone of the organization. */
  phone_scope: z.array(z.string()).nullable(),
  /** The phone resolved from `x-phone`, or null when the header was absent. */
  phone: z.object({ phone_id: z.string(), org_phone: z.string().nullable() }).nullable(),
  /**
   * The signed-in member when the caller is a console session (then token_id is the member_id and
   * phone_scope the member's phones); absent or null for a bearer token.
   */
  member: MemberPrincipalSchema.nullable().optional(),
  /**
   * Set by a service acting on its own, never by the gateway: 'workflow' for the automation engine running a
   * workflow (token_id is then the workflow's id). Absent or null: the token or the member acts.
   */
  actor: z.enum(['workflow']).nullable().optional(),
});
export type RequestContext = z.infer<typeof RequestContextSchema>;

/**
 * Who a message sent for this request is recorded as sent by (the message's `performed_by`, a string as in the
 * hosted shape): a console member's email, a bearer token's id (the api_tokens row, never the token itself),
 * null for a workflow (its sends keep no sender, as before; docs/services/queue.md "Sender").
 */
export function performedByOf(ctx: Pick<RequestContext, 'token_id' | 'member' | 'actor'>): string | null {
  if (ctx.actor === 'workflow') return null;
  return ctx.member?.email ?? ctx.token_id;
}
