import type { MemberRow as ApiMemberRow } from '@mapi/contracts';
import type { MemberRecord } from './repositories/member-repository';

/** A stored member as the public client's `tbl_org_members` row. */
export function mapMember(m: MemberRecord): ApiMemberRow {
  const limited = m.role === 'member';
  return {
    created_at: m.created_at.toISOString(),
    email: m.email,
    invited_at: m.invited_at?.toISOString() ?? null,
    invited_by: m.invited_by,
    is_active: m.password_hash !== null,
    is_online: null,
    is_owner: m.role === 'owner',
    label_ids: limited && m.labels_limited ? m.label_ids : null,
    member_color: m.member_color as ApiMemberRow['member_color'],
    member_image: null,
    member_metadata: null,
    member_name: m.member_name,
    org_id: m.org_id,
    org_phones: limited && m.phones_limited ? m.org_phones : null,
    preferences: {},
    role: m.role === 'member' ? 'member' : 'admin',
    user_id: m.member_id,
  };
}

/** The phones a member reaches: null for every phone (owners, admins, members without a limit). */
export const labelReach = (m: Pick<MemberRecord, 'role' | 'labels_limited' | 'label_ids'>): string[] | null =>
  m.role === 'member' && m.labels_limited ? m.label_ids : null;

export const phoneReach = (m: Pick<MemberRecord, 'role' | 'phones_limited' | 'phone_ids'>): string[] | null =>
  m.role === 'member' && m.phones_limited ? m.phone_ids : null;
