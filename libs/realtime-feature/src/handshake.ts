import { ServiceError, type MemberPrincipal } from '@mapi/contracts';
import type { Subscription } from './subscription';

/** The caller as the gateway's Authenticator establishes it (only the fields used here). */
export interface HandshakePrincipal {
  token_id: string;
  org_id: string;
  phone_scope: string[] | null;
  /** The signed-in member of a console session; absent for a bearer token. */
  member?: MemberPrincipal | null;
}

/** The gateway's Authenticator, as seen from here: Bearer header (or a console session cookie) → principal, or a ServiceError (401). */
export interface TokenAuthenticator {
  authenticate(authorization: string | undefined, credentials?: { cookie?: string; method?: string }): Promise<HandshakePrincipal>;
}

/** The gateway's PhoneResolver: x-phone → a phone within the token's scope, or a ServiceError (401/422). */
export interface PhoneLookup {
  resolve(principal: HandshakePrincipal, header: string | undefined, required: boolean): Promise<{ phone_id: string } | null>;
}

/** The refusal a client sees as `connect_error`: `message` is the reason, `data` the HTTP-style envelope. */
export class HandshakeRefusal extends Error {
  readonly data: { code: string; status: number; message: string };
  constructor(code: string, status: number, message: string) {
    super(message);
    this.data = { code, status, message };
  }
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Checks a handshake exactly like an HTTP request: the same Authenticator and PhoneResolver, so the
 * same tokens, plans, scopes and x-phone rules apply, with the same messages. An absent or empty
 * x-phone means every phone the token reaches.
 */
export async function authorizeHandshake(
  headers: Record<string, string | string[] | undefined>,
  auth: TokenAuthenticator,
  phones: PhoneLookup,
): Promise<Subscription> {
  try {
    // A console session cookie works too (the handshake is a GET: no CSRF token to check; SameSite=Strict).
    const principal = await auth.authenticate(first(headers.authorization), { cookie: first(headers.cookie), method: 'GET' });
    const phone = await phones.resolve(principal, first(headers['x-phone']), false);
    const phone_ids = phone ? [phone.phone_id] : principal.phone_scope;
    const member = principal.member?.role === 'member' ? principal.member : null;
    return {
      org_id: principal.org_id,
      token_id: principal.token_id,
      phone_ids,
      ...(member ? { member, phone: phone?.phone_id ?? null } : {}),
    };
  } catch (error) {
    if (error instanceof ServiceError) throw new HandshakeRefusal(error.code, error.status, error.message);
    throw new HandshakeRefusal('SERVICE_UNAVAILABLE_ERROR', 503, 'Could not check the token now; retry');
  }
}
