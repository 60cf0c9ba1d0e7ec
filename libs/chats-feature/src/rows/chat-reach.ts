import type { RequestContext } from '@mapi/contracts';
import { Prisma } from '@mapi/db';

/**
 * What a member (role member) of a console session is limited to beyond phones: the chats carrying
 * one of their labels, with per-chat overrides ({email: true | false} in chat_properties) granting or
 * denying a chat whatever their phones and labels.
 */
export interface MemberChatAccess {
  /** Lower-case; the key of override_chat_access. */
  email: string;
  /** Lower-case label names or label ids; null: every label. */
  labels: string[] | null;
  /** The x-phone phone: an override grants a chat only as that phone holds it. Null: any phone of the organization. */
  grantPhone: string | null;
}

/** Which chats a request reaches: the phones (x-phone, else the scope), and for a member their labels and overrides. */
export interface ChatReach {
  /** null: every phone of the organization. */
  phoneIds: string[] | null;
  /** null: owners, admins, bearer tokens (phones only). */
  member: MemberChatAccess | null;
}

/** The reach of a request: bearer tokens, owners and admins by phones only; members by labels and overrides too. */
export function chatReach(ctx: Pick<RequestContext, 'phone' | 'phone_scope' | 'member'>): ChatReach {
  const phoneIds = ctx.phone ? [ctx.phone.phone_id] : ctx.phone_scope;
  const m = ctx.member;
  if (!m || m.role !== 'member') return { phoneIds, member: null };
  return { phoneIds, member: { email: m.email.toLowerCase(), labels: m.label_ids ?? null, grantPhone: ctx.phone?.phone_id ?? null } };
}

/** Whether nothing at all can be reached (an empty phone scope and no member overrides to widen it). */
export const reachesNothing = (r: ChatReach): boolean => !!r.phoneIds && r.phoneIds.length === 0 && !r.member;

/**
 * `AND …` keeping the rows of `alias` (a table with phone_id and chat_id: chats, messages) within
 * reach. For a member: not denied by an override, and either (on a phone in reach and carrying one of
 * their labels, by name or id) or granted by an override. Primary-key probes of chat_properties
 * (org_id, chat_id) and chat_labels (org_id, chat_id, …) per row.
 */
export function reachSql(orgId: string, r: ChatReach, alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  const phones = r.phoneIds ? Prisma.sql`${a}.phone_id = ANY(${r.phoneIds}::text[])` : Prisma.sql`TRUE`;
  if (!r.member) return r.phoneIds ? Prisma.sql`AND ${phones}` : Prisma.empty;
  const { email, labels, grantPhone } = r.member;
  const override = (value: boolean) => Prisma.sql`EXISTS (
    SELECT 1 FROM chat_properties ov WHERE ov.org_id = ${orgId}::uuid AND ov.chat_id = ${a}.chat_id
      AND ov.override_chat_access -> ${email}::text = ${value ? 'true' : 'false'}::jsonb)`;
  const labelled = labels
    ? Prisma.sql`EXISTS (
        SELECT 1 FROM chat_labels lb WHERE lb.org_id = ${orgId}::uuid AND lb.chat_id = ${a}.chat_id
          AND (lb.label_name = ANY(${labels}::text[]) OR lb.label_id::text = ANY(${labels}::text[])))`
    : Prisma.sql`TRUE`;
  const grantPhones = grantPhone ? Prisma.sql`${a}.phone_id = ${grantPhone}` : Prisma.sql`TRUE`;
  return Prisma.sql`AND NOT ${override(false)} AND ((${phones} AND ${labelled}) OR (${grantPhones} AND ${override(true)}))`;
}
