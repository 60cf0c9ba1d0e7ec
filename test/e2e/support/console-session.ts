import type { Answer } from './http';

/** A browser's view of a console session: the cookies set by sign-in, sent back with x-csrf-token on changes. */
export interface ConsoleSession {
  cookie: string;
  csrf: string;
  /** The Set-Cookie lines of the sign-in answer, as received. */
  setCookies: string[];
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
}

const parse = async (res: Response): Promise<Answer> => {
  const text = await res.text();
  let body: any = text || undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body };
};

/** One request without a bearer token: JSON body, extra headers (cookie, x-csrf-token) as given. */
export async function anonymous(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  return parse(await fetch(`${baseUrl}/v1${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) }));
}

/** The session of a sign-in (or accept-invite) answer; throws unless it was 200 with both cookies. */
export function sessionOf(baseUrl: string, answer: Answer): ConsoleSession {
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  const setCookies = answer.headers.getSetCookie();
  const value = (name: string) => setCookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
  const session = value('mapi_session');
  const csrf = value('mapi_csrf');
  if (!session || !csrf) throw new Error(`no session cookies in ${JSON.stringify(setCookies)}`);
  const cookie = `${session}; ${csrf}`;
  const csrfToken = csrf.split('=')[1];
  return {
    cookie,
    csrf: csrfToken,
    setCookies,
    call: (method, path, body, headers = {}) =>
      anonymous(baseUrl, method, path, body, { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrfToken }), ...headers }),
  };
}

/** Who can invite: the bearer-token client of support/http.ts, or a console session of an owner or admin. */
interface Inviter {
  post(path: string, body?: unknown): Promise<Answer>;
}

/**
 * A member invited through the API (`body`: `{emails: [one], role?, orgPhones?, labels?}`) who accepts
 * at once with `password`: their console session.
 */
export async function joinByInvitation(
  baseUrl: string,
  inviter: Inviter,
  body: { emails: [string] } & Record<string, unknown>,
  password: string,
): Promise<ConsoleSession> {
  const res = await inviter.post('/members/invite', body);
  if (res.status !== 200) throw new Error(`invite: ${res.status} ${JSON.stringify(res.body)}`);
  const token = (res.body.invitations[0].invite_url as string).split('#token=')[1];
  return sessionOf(baseUrl, await anonymous(baseUrl, 'POST', '/auth/accept-invite', { token, password }));
}

/** The session's cookies as a browser context takes them (`context.addCookies`) for the console at `url`. */
export function browserCookies(session: ConsoleSession, url: string): { name: string; value: string; url: string }[] {
  return session.setCookies.map((c) => {
    const pair = c.split(';')[0];
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
}
