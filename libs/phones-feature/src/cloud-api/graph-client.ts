import { GraphError } from './graph-errors';

export interface GraphPhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

/**
 * The few Graph API calls of the Cloud API connector, over Node's fetch. The token goes in the
 * Authorization header only; neither it nor a request body is ever put in an error or a log.
 */
export class GraphClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  /** GET /{phone_number_id}: the number's details; the token is accepted when this answers. */
  phoneNumber(phoneNumberId: string, token: string): Promise<GraphPhoneNumber> {
    const fields = 'display_phone_number,verified_name';
    return this.call<GraphPhoneNumber>('GET', `/${encodeURIComponent(phoneNumberId)}?fields=${fields}`, token);
  }

  /** POST /{phone_number_id}/messages: Meta's id (wamid) of the accepted message. */
  async sendMessage(phoneNumberId: string, token: string, body: Record<string, unknown>): Promise<string> {
    const answer = await this.call<{ messages?: { id?: string }[] }>('POST', `/${encodeURIComponent(phoneNumberId)}/messages`, token, {
      messaging_product: 'whatsapp',
      ...body,
    });
    const id = answer.messages?.[0]?.id;
    if (!id) throw new GraphError(502, null, null, 'the Graph API accepted the message without its id');
    return id;
  }

  /** POST /{phone_number_id}/media (multipart): a file to send by its id; Meta keeps it 30 days. */
  async uploadMedia(phoneNumberId: string, token: string, file: { data: Buffer; mimetype: string; filename: string }): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', file.mimetype);
    form.append('file', new Blob([new Uint8Array(file.data)], { type: file.mimetype }), file.filename);
    const answer = await this.call<{ id?: string }>('POST', `/${encodeURIComponent(phoneNumberId)}/media`, token, form);
    if (!answer.id) throw new GraphError(502, null, null, 'the Graph API took the file without its id');
    return answer.id;
  }

  /** GET /{waba_id}/message_templates: the business account's approved templates (first 200). */
  async templates(wabaId: string, token: string): Promise<Record<string, unknown>[]> {
    const fields = 'name,language,status,category,components';
    const answer = await this.call<{ data?: Record<string, unknown>[] }>(
      'GET',
      `/${encodeURIComponent(wabaId)}/message_templates?fields=${fields}&status=APPROVED&limit=200`,
      token,
    );
    return Array.isArray(answer.data) ? answer.data : [];
  }

  /** GET /{media_id}: where a received file can be fetched (a short-lived URL that takes the same token). */
  mediaInfo(mediaId: string, token: string): Promise<{ url: string; mime_type?: string; file_size?: number }> {
    return this.call('GET', `/${encodeURIComponent(mediaId)}`, token);
  }

  /** The file at a media URL of mediaInfo, with the token; refused past `maxBytes`. */
  async download(url: string, token: string, maxBytes: number): Promise<Buffer> {
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(this.timeoutMs * 6) });
    } catch (err) {
      throw new GraphError(0, null, null, `the media could not be fetched: ${(err as Error).name}`);
    }
    if (!res.ok) throw new GraphError(res.status, null, null, `the media URL answered ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxBytes) throw new GraphError(413, null, null, `the media is larger than ${maxBytes} bytes`);
    const data = Buffer.from(await res.arrayBuffer());
    if (data.length > maxBytes) throw new GraphError(413, null, null, `the media is larger than ${maxBytes} bytes`);
    return data;
  }

  /** POST /{phone_number_id}/messages with status read: the received message shows read (blue ticks) on the customer's phone. */
  async markRead(phoneNumberId: string, token: string, wamid: string): Promise<void> {
    await this.call('POST', `/${encodeURIComponent(phoneNumberId)}/messages`, token, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
    });
  }

  private async call<T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        // a form sets its own multipart content type (with the boundary)
        headers: {
          authorization: `Bearer ${token}`,
          ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
        },
        body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new GraphError(0, null, null, `the Graph API could not be reached: ${(err as Error).name}`);
    }
    const text = await res.text().catch(() => '');
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const e = (json as { error?: { message?: unknown; code?: unknown; error_data?: { details?: unknown } } } | undefined)?.error;
      throw new GraphError(
        res.status,
        typeof e?.code === 'number' ? e.code : null,
        typeof e?.error_data?.details === 'string' ? e.error_data.details.slice(0, 500) : null,
        typeof e?.message === 'string' ? e.message.slice(0, 500) : `the Graph API answered ${res.status}`,
      );
    }
    if (json === undefined) throw new GraphError(502, null, null, 'the Graph API answered something that is not JSON');
    return json as T;
  }
}
