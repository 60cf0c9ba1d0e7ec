import { ListChatMessagesResponse, ReadyJson, type ListChatMessagesRequest, type RequestContext } from '@mapi/contracts';
import { mapMessage } from '../../messages/map-message';
import type { ChatPage, MessageRepository } from '../../repositories/message-repository';
import type { MessageRow } from '../../rows/message-row';
import { SQL_BUILT_PAGES_FROM } from '../../messages/ready-messages-page';
import { ListChatMessages } from './list-chat-messages.usecase';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const CHAT = '14155550123@c.us';

/** In-memory stand-in for the Postgres-backed repository: records each call, answers with the given rows, or their message objects' JSON as JSON.stringify writes it (as Postgres builds it). */
class FakeMessageRepository {
  readonly calls: { orgId: string; page: ChatPage; read: 'rows' | 'ready' }[] = [];
  constructor(private readonly rows: MessageRow[]) {}

  async listByChat(orgId: string, page: ChatPage): Promise<MessageRow[]> {
    this.calls.push({ orgId, page, read: 'rows' });
    return this.rows;
  }

  async listByChatReady(orgId: string, page: ChatPage): Promise<string[]> {
    this.calls.push({ orgId, page, read: 'ready' });
    return this.rows.map((row) => JSON.stringify(mapMessage(row)));
  }
}

function row(n: number): MessageRow {
  const unique = `3EB0${String(n).padStart(16, '0')}`;
  return {
    org_id: ORG,
    chat_id: CHAT,
    message_id: `false_${CHAT}_${unique}`,
    unique_id: unique,
    org_phone: '14155550100@c.us',
    sender_phone: CHAT,
    from_me: false,
    body: `message ${n}`,
    prev_body: null,
    message_type: 'chat',
    timestamp: new Date(Date.UTC(2024, 4, 1, 10, 0, 60 - n)),
    updated_at: new Date(Date.UTC(2024, 4, 1, 10, 1)),
    ack: 2,
    delivery_info: { delivered_count: 1, read_count: 0, pending: [] },
    mentioned_ids: [],
    media: null,
    fts: `message ${n}`,
    broadcast: null,
    sent_message_id: null,
    author: null,
    broadcast_id: null,
    device_type: null,
    duration: null,
    flag_metadata: null,
    flag_response_time: null,
    flag_status: null,
    forwarding_score: null,
    from: null,
    has_media: null,
    has_quoted_msg: null,
    has_reaction: null,
    interactive: null,
    invite_v4: null,
    is_deleted: null,
    is_ephemeral: null,
    is_forwarded: null,
    is_gif: null,
    is_starred: null,
    is_status: null,
    links: null,
    location: null,
    media_key: null,
    message_ticket_id: null,
    order_id: null,
    performed_by: null,
    poll_info: null,
    poll_results: null,
    quoted_message_id: null,
    raw_data: null,
    to: null,
    token: null,
    vcards: null,
  };
}

const PHONE = { phone_id: 'phone-aaaaaaaaaaaa1', org_phone: '14155550100@c.us' };

function request(ctx: Partial<RequestContext> = {}, query = { offset: 0, limit: 2000 }): ListChatMessagesRequest {
  return {
    ctx: { org_id: ORG, token_id: '6d0f8a5e-7b8c-4c1d-9e2f-0a1b2c3d4e5f', phone_scope: null, phone: null, ...ctx },
    params: { chat_id: CHAT },
    query,
  };
}

/** The answer as the client gets it: `bytes` as sent (a ReadyJson's as they are, else JSON.stringify's), `response` their value. */
async function run(rows: MessageRow[], req: ListChatMessagesRequest) {
  const repo = new FakeMessageRepository(rows);
  const answer = await new ListChatMessages(repo as unknown as MessageRepository).execute(req);
  const bytes = answer instanceof ReadyJson ? Buffer.from(answer.json).toString('utf8') : JSON.stringify(answer);
  return { repo, answer, bytes, response: JSON.parse(bytes) as ListChatMessagesResponse };
}

describe('ListChatMessages', () => {
  describe('which phones are read', () => {
    it('reads only the x-phone phone when one was resolved, even for a scoped token', async () => {
      const { repo } = await run([], request({ phone: PHONE, phone_scope: [PHONE.phone_id, 'phone-bbbbbbbbbbbb1'] }));
      expect(repo.calls[0].page.phoneIds).toEqual([PHONE.phone_id]);
    });

    it("reads the token's scoped phones without x-phone", async () => {
      const { repo } = await run([], request({ phone_scope: ['phone-aaaaaaaaaaaa1', 'phone-bbbbbbbbbbbb1'] }));
      expect(repo.calls[0].page.phoneIds).toEqual(['phone-aaaaaaaaaaaa1', 'phone-bbbbbbbbbbbb1']);
    });

    it('reads every phone of the organization (null) for an unscoped token without x-phone', async () => {
      const { repo } = await run([], request());
      expect(repo.calls[0].page.phoneIds).toBeNull();
    });
  });

  it('passes the organization, chat and page to the repository', async () => {
    const { repo } = await run([], request({}, { offset: 20, limit: 10 }));
    expect(repo.calls).toEqual([{ orgId: ORG, page: { chatId: CHAT, phoneIds: null, member: null, offset: 20, limit: 10 }, read: 'rows' }]);
  });

  it('always scopes by the organization of the context', async () => {
    const other = '9f1e2d3c-4b5a-4c6d-8e7f-a0b1c2d3e4f5';
    const { repo } = await run([], request({ org_id: other, phone: PHONE }));
    expect(repo.calls.map((c) => c.orgId)).toEqual([other]);
  });

  it('numbers a first page of 3 from 1 to 3', async () => {
    const { response } = await run([row(1), row(2), row(3)], request());
    expect(response).toMatchObject({ from: 1, to: 3, count: 3 });
  });

  it('numbers a later page from offset + 1', async () => {
    const { response } = await run([row(1), row(2)], request({}, { offset: 5, limit: 2 }));
    expect(response).toMatchObject({ from: 6, to: 7, count: 2 });
  });

  it('answers an empty page past the end with from = to = offset and count 0', async () => {
    const { response } = await run([], request({}, { offset: 10, limit: 2000 }));
    expect(response).toEqual({ from: 10, to: 10, count: 0, messages: [] });
  });

  it(`answers pages of more than ${SQL_BUILT_PAGES_FROM} messages with Postgres's JSON as it is (ReadyJson), smaller ones mapped — the same bytes`, async () => {
    for (const rows of [[row(1), row(2), row(3)], [row(1)], []]) {
      const big = await run(rows, request({}, { offset: 7, limit: SQL_BUILT_PAGES_FROM + 1 }));
      const small = await run(rows, request({}, { offset: 7, limit: SQL_BUILT_PAGES_FROM }));
      expect([big.repo.calls[0].read, small.repo.calls[0].read]).toEqual(['ready', 'rows']);
      expect([big.answer instanceof ReadyJson, small.answer instanceof ReadyJson]).toEqual([true, false]);
      expect(big.bytes).toBe(small.bytes);
    }
  });

  it('returns the messages mapped to the message object, in repository order', async () => {
    const rows = [row(1), row(2), row(3)];
    const { response } = await run(rows, request());
    expect(response.messages.map((m) => m.message_id)).toEqual(rows.map((r) => r.message_id));
    expect(response.messages[0].ack).toBe('2');
    expect(ListChatMessagesResponse.safeParse(response).error?.issues ?? []).toEqual([]);
  });
});
