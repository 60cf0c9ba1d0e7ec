import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Errors, type ChatCopy, type RequestContext } from '@mapi/contracts';
import { eventSubject, publishDurable, type DomainEvent } from '@mapi/events';
import { createLogger, connectNats } from '@mapi/platform';
import { randomSuffix, testEnv } from '@mapi/testing';
import type { NatsConnection } from 'nats';
import { io as connect, type Socket } from 'socket.io-client';
import { RealtimeConfigSchema } from './config';
import type { HandshakePrincipal } from './handshake';
import { startRealtime, type Realtime } from './start-realtime';

/** Tokens of this test: two organizations, one token scoped to a single phone. */
const principals: Record<string, HandshakePrincipal> = {
  a: { token_id: 't-a', org_id: 'org-a', phone_scope: null },
  a2: { token_id: 't-a2', org_id: 'org-a', phone_scope: null },
  scoped: { token_id: 't-s', org_id: 'org-a', phone_scope: ['phone-a2'] },
  b: { token_id: 't-b', org_id: 'org-b', phone_scope: null },
  amy: { token_id: 't-amy', org_id: 'org-a', phone_scope: ['phone-a1'], member: memberOf('member', 'amy@example.com', ['vip']) },
  ada: { token_id: 't-ada', org_id: 'org-a', phone_scope: ['phone-a1'], member: memberOf('admin', 'ada@example.com', null) },
};
function memberOf(role: 'member' | 'admin', email: string, labels: string[] | null) {
  return {
    member_id: '00000000-0000-4000-8000-00000000000a',
    session_id: '00000000-0000-4000-8000-00000000000b',
    email,
    role,
    label_ids: labels,
  };
}
/** The chats service's answer for amy's socket: the copies granted here; every question recorded. */
const reachable = new Set(['phone-a1:vip', 'phone-a2:far']);
const asked: { email: string | undefined; copy: string }[] = [];
let reachDown = false;
const copiesInReach = async (ctx: RequestContext, copies: ChatCopy[]) => {
  if (reachDown) throw Errors.unavailable('chats is down');
  asked.push(...copies.map((c) => ({ email: ctx.member?.email, copy: `${c.phone_id}:${c.chat_id}` })));
  return copies.filter((c) => reachable.has(`${c.phone_id}:${c.chat_id}`));
};
const phonesOf: Record<string, string[]> = { 'org-a': ['phone-a1', 'phone-a2'], 'org-b': ['phone-b1'] };
const auth = {
  authenticate: async (h: string | undefined) => {
    const p = principals[(h ?? '').replace(/^Bearer /, '')];
    if (!p) throw Errors.unauthorized('Invalid bearer token');
    return p;
  },
};
const phones = {
  resolve: async (p: HandshakePrincipal, header: string | undefined) => {
    if (!header) return null;
    if (!phonesOf[p.org_id].includes(header) || (p.phone_scope && !p.phone_scope.includes(header)))
      throw Errors.unauthorized(`Phone ${header} is not accessible with this token`);
    return { phone_id: header };
  },
};

// Stand-in payloads: the server passes `data` through untouched, whatever it is.
const event = (org_id: string, phone_id: string | null, n: number, data: unknown = { n }): DomainEvent =>
  ({
    event_id: `e-${randomSuffix()}`,
    event_type: 'message.created',
    org_id,
    phone_id,
    created_at: new Date().toISOString(),
    data,
  }) as DomainEvent;

describe('realtime server (socket.io on an HTTP server, events from JetStream)', () => {
  let http: HttpServer;
  let nc: NatsConnection;
  let rt: Realtime;
  let url: string;
  const namespace = `${testEnv.namespace()}-rt-${randomSuffix(3)}`;
  const sockets: Socket[] = [];

  const open = (token: string, phone?: string, transports: string[] = ['websocket']) => {
    const s = connect(url, {
      transports,
      reconnection: false,
      extraHeaders: { Authorization: `Bearer ${token}`, ...(phone ? { 'x-phone': phone } : {}) },
    });
    sockets.push(s);
    return s;
  };
  const connected = (s: Socket) =>
    new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });
  const refused = (s: Socket) => new Promise<Error & { data?: any }>((resolve) => s.once('connect_error', resolve));
  const collect = (s: Socket) => {
    const got: { type: string; data: any; meta: any }[] = [];
    s.onAny((type, data, meta) => got.push({ type, data, meta }));
    return got;
  };

  beforeAll(async () => {
    http = createServer();
    nc = await connectNats(testEnv.natsUrl(), 'realtime-int-spec');
    const config = RealtimeConfigSchema.parse({ REALTIME_MAX_CONNECTIONS_PER_TOKEN: '3', REALTIME_MAX_BUFFERED_EVENTS: '20' });
    rt = await startRealtime(http, { auth, phones, nc, namespace, logger: createLogger('realtime-test', 'silent'), config, copiesInReach });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterEach(() => {
    sockets.splice(0).forEach((s) => s.disconnect());
  });

  afterAll(async () => {
    await rt.close();
    await new Promise((r) => http.close(r));
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(`${namespace.toUpperCase().replace(/-/g, '_')}_EVENTS`).catch(() => undefined);
    await jsm.streams.delete(`${namespace.toUpperCase().replace(/-/g, '_')}_INGEST`).catch(() => undefined);
    await nc.drain();
  });

  it('refuses a handshake without a valid token, or for a phone out of reach, with the reason and status', async () => {
    const none = await refused(connect(url, { transports: ['websocket'], reconnection: false }));
    expect(none.message).toMatch(/Invalid bearer token/);
    expect(none.data).toMatchObject({ code: 'UNAUTHORIZED_ERROR', status: 401 });
    const otherOrgsPhone = await refused(open('a', 'phone-b1'));
    expect(otherOrgsPhone.data).toMatchObject({ status: 401, message: 'Phone phone-b1 is not accessible with this token' });
    const outOfScope = await refused(open('scoped', 'phone-a1'));
    expect(outOfScope.data).toMatchObject({ status: 401 });
  });

  it('delivers from the stream each event of the organization, under its name, the object as payload, in order', async () => {
    const a = open('a');
    const b = open('b');
    await Promise.all([connected(a), connected(b)]);
    const [gotA, gotB] = [collect(a), collect(b)];
    const js = nc.jetstream();
    for (let n = 0; n < 5; n++) {
      const e = event('org-a', 'phone-a1', n, { message_id: `m${n}` });
      await publishDurable(js, eventSubject(namespace, 'message.created'), e, e.event_id);
    }
    const ack = { ...event('org-a', 'phone-a1', 9, { message_id: 'm0', ack: '3' }), event_type: 'message.ack.updated' as const };
    await publishDurable(js, eventSubject(namespace, 'message.ack.updated'), ack, ack.event_id);
    await until(() => gotA.length === 6);
    expect(gotA.map((g) => g.type)).toEqual([...Array(5).fill('message.created'), 'message.ack.updated']);
    expect(gotA.map((g) => g.data.message_id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm0']);
    expect(gotA[5].meta).toMatchObject({
      event_id: ack.event_id,
      event_type: 'message.ack.updated',
      org_id: 'org-a',
      phone_id: 'phone-a1',
    });
    expect(gotA[5].meta.data).toBeUndefined();
    await new Promise((r) => setTimeout(r, 200));
    expect(gotB).toEqual([]);
  });

  it('narrows to the x-phone phone, and a scoped token to its phones, without org-level events', async () => {
    const all = open('a');
    const byHeader = open('a', 'phone-a1');
    const scoped = open('scoped');
    await Promise.all([all, byHeader, scoped].map(connected));
    const got = [all, byHeader, scoped].map(collect);
    rt.server.deliver(event('org-a', 'phone-a1', 1));
    rt.server.deliver(event('org-a', 'phone-a2', 2));
    rt.server.deliver(event('org-a', null, 3));
    rt.server.deliver(event('org-b', 'phone-b1', 4));
    await until(() => got[0].length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(got.map((g) => g.map((x) => x.data.n))).toEqual([[1, 2, 3], [1], [2]]);
  });

  it("a member's socket gets only the events of chats within reach, in order, one question per chat; admins and tokens by rooms", async () => {
    const [amy, ada, all] = [open('amy'), open('ada'), open('a')];
    await Promise.all([amy, ada, all].map(connected));
    const got = [amy, ada, all].map(collect);
    asked.length = 0;
    const chat = (phone: string | null, chatId: string | null, n: number, type = 'message.created') =>
      ({ ...event('org-a', phone, n, chatId ? { n, chat_id: chatId } : { n }), event_type: type }) as unknown as DomainEvent;
    rt.server.deliver(chat('phone-a1', 'vip', 1));
    rt.server.deliver(chat('phone-a1', 'plain', 2));
    rt.server.deliver(chat('phone-a2', 'far', 3));
    rt.server.deliver(chat('phone-a2', 'plain', 4));
    rt.server.deliver(chat('phone-a1', null, 5, 'phone.updated'));
    rt.server.deliver(chat(null, null, 6, 'workflow.created'));
    rt.server.deliver(chat('phone-a1', 'vip', 7));
    rt.server.deliver({ ...chat('phone-b1', 'vip', 8), org_id: 'org-b' } as unknown as DomainEvent);
    await until(() => got[2].length === 7 && got[0].length === 4);
    await new Promise((r) => setTimeout(r, 150));
    expect(got.map((g) => g.map((x) => x.data.n))).toEqual([
      [1, 3, 5, 7],
      [1, 2, 5, 7],
      [1, 2, 3, 4, 5, 6, 7],
    ]);
    expect(asked).toEqual(
      ['phone-a1:vip', 'phone-a1:plain', 'phone-a2:far', 'phone-a2:plain'].map((copy) => ({ email: 'amy@example.com', copy })),
    );
    // a label change of the chat drops the cached answer: the next event of it is asked again
    reachable.delete('phone-a1:vip');
    rt.server.deliver(chat('phone-a1', 'vip', 9, 'chat.label.updated'));
    rt.server.deliver(chat('phone-a1', 'vip', 10));
    rt.server.deliver(chat('phone-a1', 'plain', 11));
    await until(() => got[1].length === 7);
    await new Promise((r) => setTimeout(r, 150));
    expect(got[0].map((x) => x.data.n)).toEqual([1, 3, 5, 7]);
    expect(asked.slice(4).map((a) => a.copy)).toEqual(['phone-a1:vip']);
    reachable.add('phone-a1:vip');
  });

  it("drops a member's socket with a reason when its reach cannot be checked (never sends unchecked)", async () => {
    const amy = open('amy');
    await connected(amy);
    const got = collect(amy);
    const reasons: any[] = [];
    amy.on('error' as any, (e: unknown) => reasons.push(e));
    const disconnected = new Promise<string>((r) => amy.once('disconnect', r));
    reachDown = true;
    try {
      rt.server.deliver(event('org-a', 'phone-a1', 1, { n: 1, chat_id: 'other' }));
      expect(await disconnected).toBe('io server disconnect');
    } finally {
      reachDown = false;
    }
    expect(reasons[0]).toMatchObject({ code: 'SERVICE_UNAVAILABLE_ERROR' });
    expect(got.filter((g) => g.type === 'message.created')).toEqual([]);
  });

  it('limits connections per token', async () => {
    const three = [open('a2'), open('a2'), open('a2')];
    await Promise.all(three.map(connected));
    const fourth = await refused(open('a2'));
    expect(fourth.data).toMatchObject({ code: 'RATE_LIMIT_ERROR', status: 429 });
    three[0].disconnect();
    await until(() => rt.server.connections === 2);
    await connected(open('a2'));
  });

  it('drops a client that stops reading, with a reason, instead of buffering without bound', async () => {
    const slow = open('a');
    const fine = open('a');
    await Promise.all([connected(slow), connected(fine)]);
    const reasons: any[] = [];
    slow.on('error' as any, (e: unknown) => reasons.push(e));
    const disconnected = new Promise<string>((r) => slow.once('disconnect', r));
    const got = collect(fine);
    const tcp = (slow.io.engine.transport as any).ws._socket;
    tcp.pause();
    const big = 'x'.repeat(64 * 1024);
    let sent = 0;
    for (let n = 0; n < 400 && rt.server.stats.dropped_slow === 0; n++, sent++) {
      rt.server.deliver(event('org-a', 'phone-a1', n, { n, big }));
      await new Promise((r) => setImmediate(r));
    }
    expect(rt.server.stats.dropped_slow).toBe(1);
    expect(sent).toBeGreaterThan(20);
    tcp.resume();
    expect(await disconnected).toBe('io server disconnect');
    expect(reasons[0]).toMatchObject({ code: 'SLOW_CONSUMER' });
    // The client that reads gets everything and stays connected.
    await until(() => got.length === sent);
    expect(fine.connected).toBe(true);
  });
});

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
