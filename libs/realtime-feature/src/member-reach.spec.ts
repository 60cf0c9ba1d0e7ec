import type { ChatCopy, RequestContext } from '@mapi/contracts';
import type { DomainEvent } from '@mapi/events';
import { MemberReachFilter, chatOf } from './member-reach';

const member = (labels: string[] | null) => ({
  member_id: '00000000-0000-4000-8000-000000000001',
  session_id: '00000000-0000-4000-8000-000000000002',
  email: 'amy@example.com',
  role: 'member' as const,
  label_ids: labels,
});
const ctx = (labels: string[] | null): RequestContext =>
  MemberReachFilter.context({ org_id: 'org', token_id: 't', phone_ids: ['p1'] }, member(labels), null);
const ev = (type: string, phone: string | null, chat: string | null, n: number) =>
  ({
    event_id: `e${n}`,
    event_type: type,
    org_id: 'org',
    phone_id: phone,
    created_at: '',
    data: chat ? { chat_id: chat, n } : { n },
  }) as unknown as DomainEvent;

/** Answers by the labels of the ctx asked with: label vip reaches chat `vip`, no label limit reaches all. */
function setup() {
  const asked: { labels: unknown; copies: string[] }[] = [];
  const reach = async (c: RequestContext, copies: ChatCopy[]) => {
    asked.push({ labels: c.member?.label_ids, copies: copies.map((x) => `${x.phone_id}:${x.chat_id}`) });
    return copies.filter((x) => c.member?.label_ids === null || x.chat_id === 'vip');
  };
  const sent: number[] = [];
  const filter = new MemberReachFilter(ctx(['vip']), reach, 60_000, (e) => {
    throw e;
  });
  const offer = (e: DomainEvent) => filter.offer(e, () => sent.push((e.data as unknown as { n: number }).n));
  return { asked, sent, filter, offer };
}

describe('MemberReachFilter', () => {
  it('sends in order what the member reaches, asking once per copy; events of no chat by phone', async () => {
    const { asked, sent, filter, offer } = setup();
    [
      ev('message.created', 'p1', 'vip', 1),
      ev('message.created', 'p1', 'plain', 2),
      ev('message.created', 'p1', 'vip', 3),
      ev('phone.updated', 'p1', null, 4),
      ev('phone.updated', 'p2', null, 5),
      ev('workflow.created', null, null, 6),
    ].forEach(offer);
    await filter.idle();
    expect(sent).toEqual([1, 3, 4]);
    expect(asked.map((a) => a.copies)).toEqual([['p1:vip'], ['p1:plain']]);
    expect(filter.pending).toBe(0);
  });

  it('a label event of the chat drops its cached answers; new labels on re-authentication drop them all', async () => {
    const { asked, sent, filter, offer } = setup();
    offer(ev('message.created', 'p1', 'plain', 1));
    offer(ev('chat.label.updated', 'p1', 'plain', 2));
    offer(ev('message.created', 'p1', 'plain', 3));
    await filter.idle();
    expect(asked).toHaveLength(2);
    filter.update(ctx(['vip']));
    offer(ev('message.created', 'p1', 'plain', 4));
    await filter.idle();
    expect(asked).toHaveLength(2);
    filter.update(ctx(null));
    offer(ev('message.created', 'p1', 'plain', 5));
    await filter.idle();
    expect(asked.at(-1)).toEqual({ labels: null, copies: ['p1:plain'] });
    expect(sent).toEqual([5]);
  });

  it('reads the chat of an event from its object', () => {
    expect(chatOf({ data: { chat_id: 'c@c.us' } } as never)).toBe('c@c.us');
    expect(chatOf({ data: { chat_id: '' } } as never)).toBeNull();
    expect(chatOf({ data: null } as never)).toBeNull();
  });
});
