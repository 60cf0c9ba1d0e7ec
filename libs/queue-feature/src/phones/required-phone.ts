import { Errors, type RequestContext } from '@mapi/contracts';

/** The x-phone phone of a route that requires it (the gateway already refused requests without it). */
export function requiredPhone(ctx: RequestContext): string {
  if (!ctx.phone) throw Errors.validation({ 'x-phone': { message: 'x-phone is required', value: null } });
  return ctx.phone.phone_id;
}
