import { digits, type Member, type Phone } from '../../api/types';

/**
 * How PATCH /v1/members/access names a phone: its number without @c.us, or its phone_id when it has
 * no number (the member rows list `number@c.us` or that phone_id, so digits() of both compare).
 */
export const phoneRef = (phone: Pick<Phone, 'phone_id' | 'org_phone'>): string =>
  phone.org_phone ? digits(phone.org_phone) : phone.phone_id;

/** Owners and admins reach everything: the API returns them unchanged, so only role member is edited. */
export const accessEditable = (m: Member): boolean => m.role === 'member' && !m.is_owner;

/** The role change a member's row offers (PATCH /v1/members/role): admin ↔ member; none for the owner. */
export function roleChange(m: Pick<Member, 'role' | 'is_owner'>): { role: 'admin' | 'member'; label: string } | null {
  if (m.is_owner) return null;
  return m.role === 'admin' ? { role: 'member', label: 'Make member' } : { role: 'admin', label: 'Make admin' };
}

/** The owner cannot be removed (the service answers 403); anyone else can, an admin themselves included. */
export const removable = (m: Member): boolean => !m.is_owner;

/** The access form: all phones, or the ticked ones (as phoneRef names them); all labels, or the names typed. */
export interface AccessForm {
  allPhones: boolean;
  phones: string[];
  allLabels: boolean;
  labels: string;
}

/** The form as it opens for a member: their access now (phones they reach that are still the organization's). */
export function accessFormOf(m: Pick<Member, 'org_phones' | 'label_ids'>, phones: Pick<Phone, 'phone_id' | 'org_phone'>[]): AccessForm {
  const reached = new Set((m.org_phones ?? []).map(digits));
  return {
    allPhones: m.org_phones === null,
    phones: phones.map(phoneRef).filter((ref) => reached.has(ref)),
    allLabels: m.label_ids === null,
    labels: (m.label_ids ?? []).join(', '),
  };
}

/** "Sales, vip ,sales," → ["sales", "vip"]: trimmed, lower case (as the API keeps them), no blanks or repeats. */
export function parseLabels(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/**
 * The body of PATCH /v1/members/access for one member. The route sets both fields every time (null =
 * all), so both are always sent: "only these" with nothing ticked or typed is none at all.
 */
export function accessBody(email: string, form: AccessForm): { emails: string[]; orgPhones: string[] | null; labels: string[] | null } {
  return {
    emails: [email],
    orgPhones: form.allPhones ? null : [...new Set(form.phones)],
    labels: form.allLabels ? null : parseLabels(form.labels),
  };
}

/** A member's phones for the table: "all", "none" or the numbers (phone_ids as given). */
export const phonesText = (m: Pick<Member, 'org_phones'>): string =>
  m.org_phones === null ? 'all' : m.org_phones.map(digits).join(', ') || 'none';

/** A member's labels for the table: "all", "none" or the names. */
export const labelsText = (m: Pick<Member, 'label_ids'>): string => (m.label_ids === null ? 'all' : m.label_ids.join(', ') || 'none');
