import { Errors, type RequestContext } from '@mapi/contracts';

/** The phone a phone route acts on (x-phone, or the token's only phone): 422 when the request names none. */
export function requirePhone(ctx: RequestContext): string {
  if (!ctx.phone) throw Errors.validation({ 'x-phone': { message: 'x-phone header is required', value: null } });
  return ctx.phone.phone_id;
}
