import { ErrorCode, Errors, ServiceError, parsePhoneRef, type PhoneDirectory, type RequestContext } from '@mapi/contracts';
import type { AuditInput } from './repositories/audit-repository';
import { fullAccess, type StoredAccess } from './repositories/member-repository';

/** Owners and admins manage members; a console session of role member is refused (403). Bearer tokens pass. */
export function requireManager(ctx: RequestContext): void {
  if (ctx.member && ctx.member.role === 'member') {
    throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, 'Only owners and admins can manage members');
  }
}

/**
 * API tokens are managed by owners and admins, and by tokens that reach every phone: a phone-scoped
 * token could otherwise mint itself a wider one (403).
 */
export function requireTokenManager(ctx: RequestContext): void {
  if (ctx.member && ctx.member.role === 'member')
    throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, 'Only owners and admins can manage API tokens');
  if (ctx.phone_scope !== null)
    throw new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, 'A token limited to some phones cannot manage API tokens');
}

/** Who is acting, for the audit trail: the signed-in member, else the bearer token. */
export function actorOf(ctx: RequestContext): Pick<AuditInput, 'actor_type' | 'actor_id' | 'actor_email'> {
  return ctx.member
    ? { actor_type: 'member', actor_id: ctx.member.member_id, actor_email: ctx.member.email }
    : { actor_type: 'token', actor_id: ctx.token_id, actor_email: null };
}

/**
 * The access to store for a member from the API's `orgPhones` and `labels` (null or absent: all).
 * Phones are numbers without @c.us (or phone_ids) of the organization's phones, read from the
 * phones service; one it does not have is a 422 on `body.orgPhones`, the same for every organization.
 */
export async function resolveAccess(
  directory: PhoneDirectory,
  orgId: string,
  input: { labels?: string[] | null; orgPhones?: string[] | null },
): Promise<StoredAccess> {
  const access = fullAccess();
  if (input.labels) {
    access.labels_limited = true;
    access.label_ids = [...new Set(input.labels)];
  }
  if (input.orgPhones) {
    const phones = input.orgPhones.length ? await directory({ org_id: orgId, connected: false }) : [];
    const unknown: string[] = [];
    for (const given of input.orgPhones) {
      const ref = parsePhoneRef(given.replace(/@c\.us$/, ''));
      const phone = ref && phones.find((p) => (ref.kind === 'phone_id' ? p.phone_id === ref.phone_id : p.org_phone === ref.org_phone));
      if (!phone) unknown.push(given);
      else if (!access.phone_ids.includes(phone.phone_id)) {
        access.phone_ids.push(phone.phone_id);
        access.org_phones.push(phone.org_phone ?? phone.phone_id);
      }
    }
    if (unknown.length) {
      throw Errors.validation({
        'body.orgPhones': { message: 'not a phone of this organization (give numbers without @c.us, or phone_ids)', value: unknown },
      });
    }
    access.phones_limited = true;
  }
  return access;
}
