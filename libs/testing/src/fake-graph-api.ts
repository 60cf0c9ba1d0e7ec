import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Meta's Graph API for the WhatsApp Cloud API connector, following the public reference
 * (developers.facebook.com/docs/whatsapp/cloud-api/reference): `GET /{phone_number_id}` (the number's
 * details; 401 with OAuthException 190 for another token), `POST /{phone_number_id}/messages`
 * (`{messaging_product, contacts, messages: [{id: wamid}]}`; the next answers can be scripted as Meta
 * errors with `failNext`), `POST /{phone_number_id}/media` (multipart upload: `{id}`),
 * `GET /{waba_id}/message_templates`, `GET /{media_id}` (the media's url) and `GET /media-file/{media_id}`
 * (its bytes).
 * Every request is recorded. It also plays Meta's side of the webhook: `callback` POSTs a payload
 * signed with the app secret (or mis-signed, or unsigned) to a callback URL, and the payload builders
 * make Meta-shaped text messages and statuses.
 */
export interface FakeGraphApi {
  /** Base URL with the version, as CLOUD_API_GRAPH_URL takes it. */
  graphUrl: string;
  requests: FakeGraphRequest[];
  /** Files uploaded (`POST /{phone_number_id}/media`, multipart): the id answered, the form's content type and raw bytes. */
  uploads: { id: string; contentType: string; raw: Buffer }[];
  /** Read marks it took (`{messaging_product, status: 'read', message_id}`): the number and the message marked. */
  reads: { phone_number_id: string; message_id: string }[];
  /** Messages it accepted: the wamid it answered, and the request's body. */
  accepted: { wamid: string; body: Record<string, unknown> }[];
  /** Numbers this fake knows: phone_number_id → {token, display_phone_number}. */
  numbers: Map<string, { token: string; display_phone_number: string; verified_name: string }>;
  /** Business accounts: waba_id → {token, templates} (`GET /{waba_id}/message_templates`). */
  wabas: Map<string, { token: string; templates: Record<string, unknown>[] }>;
  /** Media this fake holds: media_id → {mime_type, bytes}. */
  media: Map<string, { mime_type: string; bytes: Buffer }>;
  /** Customers (wa_id) outside the 24-hour window: a free-form message to them fails with 131047, a template goes. */
  closedWindows: Set<string>;
  /** The next sends fail with these Meta errors (one per send, in order). */
  failNext(...errors: { status: number; code: number; message: string; details?: string }[]): void;
  /** POSTs a Meta callback to `url`: signed with `appSecret` (`'bad'`: a wrong signature; `'none'`: no header). */
  callback(url: string, payload: unknown, appSecret: string, sign?: 'good' | 'bad' | 'none'): Promise<{ status: number; body: string }>;
  stop(): Promise<void>;
}

export interface FakeGraphRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
}

export const newWamid = () => `wamid.${randomBytes(24).toString('base64url')}`;

/** The envelope of a Cloud API callback: one entry, one `messages` change of the number. */
export function callbackPayload(
  number: { phone_number_id: string; display_phone_number: string; waba_id: string },
  value: { contacts?: unknown[]; messages?: unknown[]; statuses?: unknown[] },
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.waba_id,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: number.display_phone_number, phone_number_id: number.phone_number_id },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A customer's text message as Meta delivers it (contacts + messages of a change's value). */
export function textMessageValue(from: string, text: string, options: { id?: string; name?: string; at?: Date; context?: string } = {}) {
  return {
    contacts: [{ profile: { name: options.name ?? 'Customer' }, wa_id: from }],
    messages: [
      {
        from,
        id: options.id ?? newWamid(),
        timestamp: String(Math.floor((options.at ?? new Date()).getTime() / 1000)),
        type: 'text',
        text: { body: text },
        ...(options.context ? { context: { from, id: options.context } } : {}),
      },
    ],
  };
}

/** A status of a message the number sent (sent, delivered, read, failed with Meta's errors). */
export function statusValue(
  wamid: string,
  recipient: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  errors?: { code: number; title: string; message?: string; details?: string }[],
) {
  return {
    statuses: [
      {
        id: wamid,
        status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: recipient,
        ...(errors
          ? {
              errors: errors.map((e) => ({
                code: e.code,
                title: e.title,
                message: e.message ?? e.title,
                error_data: { details: e.details ?? '' },
              })),
            }
          : {}),
      },
    ],
  };
}

/**
 * The Graph API's `template` object of an approved template with body parameters, as Meta's reference
 * shows it: what the connector must send for `template: {name, language, parameters}`.
 */
export function graphTemplate(name: string, language: string, parameters: string[] = []): Record<string, unknown> {
  return {
    name,
    language: { code: language },
    ...(parameters.length ? { components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] } : {}),
  };
}

const metaError = (res: ServerResponse, status: number, code: number, message: string, details?: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: { message, type: 'OAuthException', code, ...(details ? { error_data: { details } } : {}), fbtrace_id: 'Afake' },
    }),
  );
};

export async function startFakeGraphApi(): Promise<FakeGraphApi> {
  const failures: { status: number; code: number; message: string; details?: string }[] = [];
  const state = {
    graphUrl: '',
    requests: [] as FakeGraphRequest[],
    accepted: [] as { wamid: string; body: Record<string, unknown> }[],
    reads: [] as { phone_number_id: string; message_id: string }[],
    uploads: [] as { id: string; contentType: string; raw: Buffer }[],
    numbers: new Map<string, { token: string; display_phone_number: string; verified_name: string }>(),
    media: new Map<string, { mime_type: string; bytes: Buffer }>(),
    wabas: new Map<string, { token: string; templates: Record<string, unknown>[] }>(),
    closedWindows: new Set<string>(),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname.replace(/^\/v[0-9.]+/, '');
      let body: Record<string, unknown> | null = null;
      const contentType = req.headers['content-type'] ?? '';
      const upload = /^\/([^/]+)\/media$/.exec(path);
      if (req.method === 'POST' && upload && contentType.startsWith('multipart/form-data')) {
        state.requests.push({ method: 'POST', path, authorization: req.headers.authorization, body: null });
        const number = state.numbers.get(upload[1]);
        if (!number || req.headers.authorization !== `Bearer ${number.token}`)
          return metaError(res, 401, 190, 'Error validating access token: the session is invalid');
        const raw = Buffer.concat(chunks);
        if (!raw.includes('name="messaging_product"') || !raw.includes('name="file"'))
          return metaError(res, 400, 100, 'The parameter messaging_product and a file are required.');
        const id = String(Date.now()) + String(state.uploads.length);
        state.uploads.push({ id, contentType, raw });
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id }));
      }
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : null;
      } catch {
        return metaError(res, 400, 100, 'Invalid parameter: the body is not JSON');
      }
      state.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const file = /^\/media-file\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && file) {
        const m = state.media.get(file[1]);
        if (!m) return metaError(res, 404, 100, 'Unknown media');
        res.writeHead(200, { 'content-type': m.mime_type });
        return res.end(m.bytes);
      }
      const [, id, edge] = /^\/([^/]+)(?:\/([^/]+))?$/.exec(path) ?? [];
      const number = id ? state.numbers.get(id) : undefined;
      const stored = id && !edge ? state.media.get(id) : undefined;
      if (req.method === 'GET' && stored) {
        const m = stored;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ id, mime_type: m.mime_type, url: `${state.graphUrl}/media-file/${id}`, file_size: m.bytes.length }),
        );
      }
      const waba = id ? state.wabas.get(id) : undefined;
      if (req.method === 'GET' && waba && edge === 'message_templates') {
        if (token !== waba.token) return metaError(res, 401, 190, 'Error validating access token: the session is invalid');
        const status = url.searchParams.get('status');
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ data: waba.templates.filter((t) => !status || t.status === status), paging: {} }));
      }
      if (!number) return metaError(res, 400, 100, `Unsupported request: object with ID '${id}' does not exist`);
      if (token !== number.token) return metaError(res, 401, 190, 'Error validating access token: the session is invalid');
      if (req.method === 'GET' && !edge) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id, display_phone_number: number.display_phone_number, verified_name: number.verified_name }));
      }
      if (req.method === 'POST' && edge === 'messages') {
        if (body?.messaging_product !== 'whatsapp') return metaError(res, 400, 100, 'The parameter messaging_product is required.');
        if (body.status === 'read') {
          if (typeof body.message_id !== 'string') return metaError(res, 400, 100, 'The parameter message_id is required.');
          state.reads.push({ phone_number_id: id, message_id: body.message_id });
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ success: true }));
        }
        if (body.type !== 'template' && state.closedWindows.has(String(body.to)))
          return metaError(
            res,
            400,
            131047,
            'Re-engagement message',
            'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
          );
        const failure = failures.shift();
        if (failure) return metaError(res, failure.status, failure.code, failure.message, failure.details);
        const wamid = newWamid();
        state.accepted.push({ wamid, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: wamid }] }),
        );
      }
      return metaError(res, 400, 100, `Unsupported ${req.method} request`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.graphUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  return {
    ...state,
    get graphUrl() {
      return state.graphUrl;
    },
    failNext: (...errors) => void failures.push(...errors),
    callback: async (url, payload, appSecret, sign = 'good') => {
      const raw = Buffer.from(JSON.stringify(payload));
      const signature = `sha256=${createHmac('sha256', sign === 'bad' ? `${appSecret}-wrong` : appSecret)
        .update(raw)
        .digest('hex')}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(sign === 'none' ? {} : { 'x-hub-signature-256': signature }) },
        body: raw,
      });
      return { status: res.status, body: await res.text() };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
